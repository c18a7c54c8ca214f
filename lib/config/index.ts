export { config, parseConfig, serverRequirements, ConfigError, CDP_FACILITATOR_URL, type Config, type FacilitatorAuth } from "./env";
