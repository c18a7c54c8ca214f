export { config, parseConfig, ConfigError, type Config } from "./env";
