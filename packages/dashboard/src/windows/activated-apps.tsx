// The line under a live turn naming the apps it brought in (`#mention`ed, `turn.started`'s
// `activatedApps`, by app id), each with Open: the app's default view opens on the desk, in this
// conversation (a single-instance view the turn already opened comes to front instead).
import { useQuery } from "@tanstack/react-query";
import { api } from "../api/client";
import type { MyApp } from "../api/types";
import { ErrorNote } from "../components/status";
import { useOpenAppWindow } from "./open-window";

export function ActivatedApps(props: { appIds: readonly string[]; conversationId: string }) {
  const { appIds, conversationId } = props;
  const apps = useQuery({
    queryKey: ["me", "apps"],
    queryFn: () => api<MyApp[]>("GET", "/me/apps"),
  });
  const open = useOpenAppWindow();
  if (appIds.length === 0) return null;
  const byId = new Map(apps.data?.map((a) => [String(a.id), a]));
  return (
    <li className="activated-apps">
      <span className="meta">Apps in this turn:</span>
      <ul className="plain">
        {appIds.map((id) => {
          const name = byId.get(id)?.name ?? `app ${id}`;
          return (
            <li key={id}>
              {name}{" "}
              <button
                type="button"
                aria-label={`Open ${name}`}
                disabled={open.isPending}
                onClick={() => open.mutate({ appId: id, conversationId })}
              >
                Open
              </button>
            </li>
          );
        })}
      </ul>
      <ErrorNote error={open.error} />
    </li>
  );
}
