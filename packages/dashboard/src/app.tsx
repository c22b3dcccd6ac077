// The shell: the header with navigation and the signed-in person, and the page for the URL.
// Pages that need a person send an anonymous visitor to sign in and back.
import { useMutation } from "@tanstack/react-query";
import { type ReactNode, Suspense, lazy, useEffect } from "react";
import { api } from "./api/client";
import { useMe, useResetSession } from "./api/session";
import { ErrorNote, Loading, PageTitle } from "./components/status";
import { AppDetailPage } from "./pages/app-detail-page";
import { AuthPage } from "./pages/auth-page";
import { DeveloperPage } from "./pages/developer-page";
import { MyAppsPage } from "./pages/my-apps-page";
import { ReviewPage } from "./pages/review-page";
import { SettingsPage } from "./pages/settings-page";
import { AuthorizationsPage } from "./pages/authorizations-page";
import { StorePage } from "./pages/store-page";
import { Link, matchPath, navigate, useLocation } from "./router";

// The chat carries the Markdown renderer; loading it on first use keeps it out of the first
// page load's JavaScript (the budget in scripts/build.mjs).
const ChatPage = lazy(() => import("./pages/chat-page").then((m) => ({ default: m.ChatPage })));

export function App() {
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <Header />
      <main id="main">
        <Page />
      </main>
    </>
  );
}

function Header() {
  const me = useMe();
  const reset = useResetSession();
  const signOut = useMutation({
    mutationFn: () => api("POST", "/auth/signout"),
    onSuccess: async () => {
      await reset();
      navigate("/signin");
    },
  });
  return (
    <header className="top">
      <Link to="/" className="brand">
        Anna
      </Link>
      <nav aria-label="Main">
        {me.data && <Link to="/chat">Chat</Link>}
        <Link to="/store">App Store</Link>
        {me.data && <Link to="/apps">My apps</Link>}
        {me.data && <Link to="/developer">Developer</Link>}
        {me.data?.is_admin && <Link to="/admin/review">Review queue</Link>}
        {me.data && <Link to="/settings">Settings</Link>}
      </nav>
      <div className="who">
        {me.data ? (
          <>
            <span>{me.data.email}</span>
            <button type="button" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
              Sign out
            </button>
          </>
        ) : (
          !me.isPending && (
            <>
              <Link to="/signin">Sign in</Link>
              <Link to="/signup">Sign up</Link>
            </>
          )
        )}
      </div>
      <ErrorNote error={signOut.error} />
    </header>
  );
}

function Page() {
  const { pathname } = useLocation();
  if (pathname === "/") return <Home />;
  if (pathname === "/store") return <StorePage />;
  if (pathname === "/chat") return <SignedIn>{<Chat conversationId={null} />}</SignedIn>;
  const conversation = matchPath("/chat/:id", pathname);
  if (conversation) {
    return <SignedIn>{<Chat conversationId={conversation.id as string} />}</SignedIn>;
  }
  if (pathname === "/signin") return <AuthPage key="signin" mode="signin" />;
  if (pathname === "/signup") return <AuthPage key="signup" mode="signup" />;
  const app = matchPath("/store/:slug", pathname);
  if (app) return <AppDetailPage key={app.slug} slug={app.slug as string} />;
  if (pathname === "/apps") return <SignedIn>{<MyAppsPage />}</SignedIn>;
  if (pathname === "/developer") return <SignedIn>{<DeveloperPage />}</SignedIn>;
  if (pathname === "/admin/review") return <SignedIn admin>{<ReviewPage />}</SignedIn>;
  if (pathname === "/settings") return <SignedIn>{<SettingsPage />}</SignedIn>;
  if (pathname === "/settings/authorizations") return <SignedIn>{<AuthorizationsPage />}</SignedIn>;
  return (
    <section>
      <PageTitle>Page not found</PageTitle>
      <p>
        Nothing lives at <code>{pathname}</code>. <Link to="/store">Go to the App Store</Link>.
      </p>
    </section>
  );
}

/** The home page: the chat for a signed-in person, the App Store for a visitor. */
function Home() {
  const me = useMe();
  if (me.isPending) return <Loading what="your account" />;
  return me.data ? <Chat conversationId={null} /> : <StorePage />;
}

function Chat({ conversationId }: { conversationId: string | null }) {
  return (
    <Suspense fallback={<Loading what="the chat" />}>
      <ChatPage conversationId={conversationId} />
    </Suspense>
  );
}

function SignedIn({ children, admin = false }: { children: ReactNode; admin?: boolean }) {
  const me = useMe();
  const { pathname } = useLocation();
  const anonymous = me.isSuccess && me.data === null;
  useEffect(() => {
    if (anonymous) navigate(`/signin?next=${encodeURIComponent(pathname)}`, { replace: true });
  }, [anonymous, pathname]);
  if (me.error) return <ErrorNote error={me.error} />;
  if (!me.data) return <Loading what="your account" />;
  if (admin && !me.data.is_admin) {
    return (
      <section>
        <PageTitle>Admins only</PageTitle>
        <p>The review queue is for this server’s admins.</p>
      </section>
    );
  }
  return children;
}
