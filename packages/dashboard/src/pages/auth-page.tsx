// Sign up and sign in: one form, two endpoints. Nexus sets the HTTP-only session cookie on
// success; the page then forgets every cached answer and goes where the person was headed.
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api } from "../api/client";
import { useResetSession } from "../api/session";
import { ErrorNote, PageTitle } from "../components/status";
import { Link, navigate, useLocation } from "../router";

/** Nexus's rule (auth/password.ts MIN_PASSWORD_CHARS). */
const MIN_PASSWORD_CHARS = 8;

export function AuthPage({ mode }: { mode: "signin" | "signup" }) {
  const { search } = useLocation();
  const next = safeNext(search.get("next"));
  const reset = useResetSession();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const submit = useMutation({
    mutationFn: () => api("POST", `/auth/${mode}`, { email, password }),
    onSuccess: async () => {
      await reset();
      navigate(next, { replace: true });
    },
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit.mutate();
  };
  const signup = mode === "signup";
  return (
    <section className="narrow">
      <PageTitle>{signup ? "Create your account" : "Sign in"}</PageTitle>
      <form onSubmit={onSubmit} aria-describedby="auth-error">
        <label htmlFor="auth-email">Email</label>
        <input
          id="auth-email"
          type="email"
          autoComplete="username"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <label htmlFor="auth-password">Password</label>
        <input
          id="auth-password"
          type="password"
          autoComplete={signup ? "new-password" : "current-password"}
          required
          minLength={signup ? MIN_PASSWORD_CHARS : undefined}
          aria-describedby={signup ? "auth-password-hint" : undefined}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {signup && (
          <p id="auth-password-hint" className="muted">
            At least {MIN_PASSWORD_CHARS} characters.
          </p>
        )}
        <button type="submit" disabled={submit.isPending}>
          {signup ? "Sign up" : "Sign in"}
        </button>
        <div id="auth-error">
          <ErrorNote error={submit.error} />
        </div>
      </form>
      <p>
        {signup ? "Already have an account? " : "New here? "}
        <Link to={`${signup ? "/signin" : "/signup"}?next=${encodeURIComponent(next)}`}>
          {signup ? "Sign in" : "Create an account"}
        </Link>
      </p>
    </section>
  );
}

/** Only a path of this site: `?next=https://evil.example` must not redirect off it. */
function safeNext(raw: string | null): string {
  return raw !== null && raw.startsWith("/") && !raw.startsWith("//") ? raw : "/store";
}
