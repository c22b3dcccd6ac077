// The App Store catalogue: search and category filter in the URL (shareable, back button
// works), one page of results at a time with "More" following the server's cursor.
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api } from "../api/client";
import type { CategoryCount, StoreListing, StorePage } from "../api/types";
import { AppLogo } from "../components/app-logo";
import { ErrorNote, Loading, PageTitle } from "../components/status";
import { Link, navigate, useLocation } from "../router";

export function StorePage() {
  const { search } = useLocation();
  const q = search.get("q") ?? "";
  const category = search.get("category") ?? "";
  const [draft, setDraft] = useState(q);
  const categories = useQuery({
    queryKey: ["store", "categories"],
    queryFn: () => api<CategoryCount[]>("GET", "/store/categories"),
    staleTime: 60_000,
  });
  const apps = useInfiniteQuery({
    queryKey: ["store", "apps", q, category],
    initialPageParam: "",
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams();
      if (q) params.set("q", q);
      if (category) params.set("category", category);
      if (pageParam) params.set("cursor", pageParam);
      return api<StorePage>("GET", `/store/apps?${params.toString()}`);
    },
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const go = (next: { q?: string; category?: string }) => {
    const params = new URLSearchParams();
    const nq = next.q ?? q;
    const nc = next.category ?? category;
    if (nq) params.set("q", nq);
    if (nc) params.set("category", nc);
    const query = params.toString();
    navigate(query ? `/store?${query}` : "/store", { replace: true });
  };
  const onSearch = (e: FormEvent) => {
    e.preventDefault();
    go({ q: draft.trim() });
  };
  const items = apps.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <section>
      <PageTitle>App Store</PageTitle>
      <form role="search" className="toolbar" onSubmit={onSearch}>
        <label htmlFor="store-q">Search apps</label>
        <input
          id="store-q"
          type="search"
          value={draft}
          maxLength={100}
          onChange={(e) => setDraft(e.target.value)}
        />
        <button type="submit">Search</button>
        <label htmlFor="store-category">Category</label>
        <select
          id="store-category"
          value={category}
          onChange={(e) => go({ category: e.target.value })}
        >
          <option value="">All categories</option>
          {(categories.data ?? []).map((c) => (
            <option key={c.category} value={c.category}>
              {c.category} ({c.count})
            </option>
          ))}
        </select>
      </form>
      <ErrorNote error={categories.error ?? apps.error} />
      {apps.isPending ? (
        <Loading what="apps" />
      ) : items.length === 0 ? (
        <p role="status">
          {q || category ? `No apps match${q ? ` “${q}”` : ""}.` : "No apps in the store yet."}
        </p>
      ) : (
        <ul className="cards" aria-label="Apps">
          {items.map((app) => (
            <AppCard key={app.id} app={app} />
          ))}
        </ul>
      )}
      {apps.hasNextPage && (
        <button
          type="button"
          disabled={apps.isFetchingNextPage}
          onClick={() => void apps.fetchNextPage()}
        >
          More apps
        </button>
      )}
    </section>
  );
}

function AppCard({ app }: { app: StoreListing }) {
  return (
    <li className="card">
      <AppLogo url={app.logo_url} name={app.name} />
      <div>
        <h2>
          <Link to={`/store/${encodeURIComponent(app.slug)}`}>{app.name}</Link>
        </h2>
        <p className="muted">{app.tagline ?? app.ref}</p>
        <p className="meta">
          {app.category ?? "uncategorised"} · v{app.latest_version ?? "?"} · {app.install_count}{" "}
          installs
        </p>
      </div>
    </li>
  );
}
