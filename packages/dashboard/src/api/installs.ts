// Install, uninstall, enable and disable: the writes of the store pages, each refreshing what
// it changes (the app's detail, My apps, and the catalogue's install counts).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, seg } from "./client";

export type InstallAction = "install" | "uninstall" | "enable" | "disable";

export function useInstallAction(slug: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: InstallAction) => {
      const path = `/store/apps/${seg(slug)}/install`;
      if (action === "install") return api("POST", path);
      if (action === "uninstall") return api("DELETE", path);
      return api("PATCH", `/me/apps/${seg(slug)}`, { enabled: action === "enable" });
    },
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: ["store"] }),
        client.invalidateQueries({ queryKey: ["me", "apps"] }),
      ]),
  });
}
