export { config, parseConfig, serverRequirements, ConfigError, CDP_FACILITATOR_URL, type Config, type FacilitatorAuth, type UpstreamConfig } from "./env";
