export const CLI_VERSION = "0.1.0";
