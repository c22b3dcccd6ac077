// An answer's Markdown as React elements (react-markdown with GitHub's tables, lists and
// strikethrough). Safe by construction: raw HTML in the text is dropped, never parsed into
// elements; react-markdown's default URL filter turns `javascript:` and other unsafe links
// into plain text; links open in a new tab without the opener or a referrer; images are shown
// as their alt text and link, so an answer cannot make the browser fetch a tracking pixel.
import type { ComponentProps } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";

const REMARK_PLUGINS = [remarkGfm];

const COMPONENTS: Components = {
  // An unsafe URL arrives here emptied by react-markdown's filter: show its text, no link.
  a: ({ node: _node, href, children, ...rest }: ComponentProps<"a"> & { node?: unknown }) =>
    href ? (
      <a {...rest} href={href} target="_blank" rel="noopener noreferrer">
        {children}
      </a>
    ) : (
      <span>{children}</span>
    ),
  img: ({ src, alt }) =>
    typeof src === "string" && src !== "" ? (
      <a href={src} target="_blank" rel="noopener noreferrer">
        {alt ? `[image: ${alt}]` : "[image]"}
      </a>
    ) : (
      <span>{alt ? `[image: ${alt}]` : "[image]"}</span>
    ),
};

export function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={REMARK_PLUGINS} components={COMPONENTS} skipHtml>
        {text}
      </ReactMarkdown>
    </div>
  );
}
