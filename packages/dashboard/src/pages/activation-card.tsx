// Self-serve developer access (the Developer Console's activation card): read the Developer
// Terms this server serves, accept them, optionally pick a handle, activate. The server checks
// the version accepted against the current one, so a change of terms made while the card was
// open is refused and the card reloads them.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, ApiError } from "../api/client";
import { ME_KEY } from "../api/session";
import type { Me } from "../api/types";
import { ErrorNote, Loading } from "../components/status";

interface Terms {
  version: string;
  self_serve: boolean;
  markdown: string;
}

const TERMS_KEY = ["developer", "terms"] as const;

export function ActivationCard({ me }: { me: Me }) {
  const client = useQueryClient();
  const terms = useQuery({
    queryKey: TERMS_KEY,
    queryFn: () => api<Terms>("GET", "/developer/terms"),
  });
  const [accepted, setAccepted] = useState(false);
  const [handle, setHandle] = useState(me.developer_handle ?? "");
  const activate = useMutation({
    mutationFn: (version: string) =>
      api<Me>("POST", "/developer/profile/activate", {
        tos_version: version,
        accept_tos: true,
        ...(handle.trim() === "" ? {} : { handle: handle.trim() }),
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ME_KEY }),
    onError: (error) => {
      // The terms changed meanwhile: show the new ones, to be read and accepted again.
      if (error instanceof ApiError && error.code === "TOS_VERSION_MISMATCH") {
        setAccepted(false);
        void client.invalidateQueries({ queryKey: TERMS_KEY });
      }
    },
  });
  if (me.developer_state === "revoked") {
    return (
      <p role="status">
        Your developer access was revoked by an admin of this server; only they can restore it.
      </p>
    );
  }
  if (terms.isPending) return <Loading what="the Developer Terms" />;
  if (terms.error) return <ErrorNote error={terms.error} />;
  if (!terms.data.self_serve) {
    return (
      <p>
        Developer access on this server is granted by an admin (<code>anna-nexus admin</code>); ask
        one to make you a verified developer.
      </p>
    );
  }
  const version = terms.data.version;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    activate.mutate(version);
  };
  return (
    <form className="column" aria-labelledby="dev-activate" onSubmit={onSubmit}>
      <h3 id="dev-activate">Activate developer access</h3>
      <p>
        Developer access lets you publish apps to this server's App Store. Read the Developer Terms
        of Service (version {version}) first.
      </p>
      {!me.is_verified && (
        <p className="error">Verify your email address first: open the link we sent you.</p>
      )}
      <div className="terms" tabIndex={0} role="document" aria-label="Developer Terms of Service">
        {terms.data.markdown}
      </div>
      <label className="check">
        <input type="checkbox" checked={accepted} onChange={(e) => setAccepted(e.target.checked)} />
        I have read and accept the Developer Terms of Service
      </label>
      <label htmlFor="activate-handle">Public handle (optional; you can set it later)</label>
      <input
        id="activate-handle"
        value={handle}
        maxLength={39}
        autoComplete="off"
        onChange={(e) => setHandle(e.target.value)}
      />
      <button
        type="submit"
        className="primary"
        disabled={!accepted || !me.is_verified || activate.isPending}
      >
        Activate developer access
      </button>
      <ErrorNote error={activate.error} />
    </form>
  );
}
