// Shared constants of the local admin (demo and browser tests only). No server code: the shell imports it.
export const LOCAL_APP_BRIDGE_PATH = "/local-admin/app-bridge.js";
export const LOCAL_TOKEN_PATH = "/local-admin/session-token";
