// Developer tokens (PATs). Nexus mints a PAT only through the device flow (spec L7493–7519), so
// "create" runs that flow inside the page: start a login, approve its code with this session,
// and poll once for the PAT, which is shown once and never again.
import { api } from "./client";

const DEV = "/anna-apps/dev";

interface DeviceStart {
  device_code: string;
  user_code: string;
  interval: number;
}

interface DevicePat {
  pat: string;
  token_id: number;
  expires_in: number;
  scopes: string[];
}

/** Polls are spaced by the server's interval and give up after this many tries. */
const MAX_POLLS = 5;

export async function createToken(): Promise<DevicePat> {
  const start = await api<DeviceStart>("POST", `${DEV}/login/start`);
  await api("POST", `${DEV}/login/approve`, { user_code: start.user_code });
  for (let i = 0; i < MAX_POLLS; i++) {
    // 202 `{status: "authorization_pending"}` until the approval is seen, then the PAT once.
    const answer = await api<DevicePat | { status: string }>("POST", `${DEV}/login/poll`, {
      device_code: start.device_code,
    });
    if ("pat" in answer) return answer;
    await new Promise((resolve) => setTimeout(resolve, start.interval * 1000));
  }
  throw new Error(`the new token was approved but not issued after ${MAX_POLLS} polls; try again`);
}
