export { config, parseConfig, serverRequirements, ConfigError, type Config } from "./env";
