// An app's logo, or its initial on a tile when it has none (decorative: the name is beside it).
export function AppLogo({ url, name }: { url: string | null; name: string }) {
  if (url) return <img className="logo" src={url} alt="" width={48} height={48} />;
  return (
    <span className="logo logo-initial" aria-hidden="true">
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}
