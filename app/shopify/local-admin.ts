// Where the demo's server (scripts/local-server.ts) serves the local admin's App Bridge stand-in and session
// tokens. Only the addresses live in the app: the shell loads the stand-in when LOCAL_ADMIN=1; the routes are not
// in the app's route tree.
export const LOCAL_APP_BRIDGE_PATH = "/local-admin/app-bridge.js";
export const LOCAL_TOKEN_PATH = "/local-admin/session-token";
