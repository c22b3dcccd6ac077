import { describe, expect, it } from "vitest";
import { decodeEntities, extractHtml } from "../../../src/services/offline/web-extract.js";

describe("extractHtml", () => {
  it("takes the title out of the content, with or without a <head>", () => {
    expect(extractHtml("<title>Local</title><p>Hi</p>", "text", "http://a.example/")).toEqual({
      title: "Local",
      content: "Hi",
    });
  });

  it("drops the page chrome and keeps <main> when there is one", () => {
    const html =
      "<header>Site</header><nav>Menu</nav><aside>Ads</aside><main><h2>Topic</h2><p>Text</p></main><footer>©</footer>";
    expect(extractHtml(html, "markdown", "http://a.example/").content).toBe("## Topic\n\nText");
    expect(extractHtml(html, "text", "http://a.example/").content).toBe("Topic\n\nText");
  });

  it("writes links as absolute Markdown links and leaves fragment links as text", () => {
    const html = '<p>See <a href="/docs?a=1&amp;b=2">the docs</a> or <a href="#top">top</a>.</p>';
    expect(extractHtml(html, "markdown", "https://a.example/x/").content).toBe(
      "See [the docs](https://a.example/docs?a=1&b=2) or top.",
    );
  });

  it("decodes named and numeric entities, leaving unknown ones as written", () => {
    expect(decodeEntities("a &lt;b&gt; &#x263A; &#9731; &bogus; &amp;")).toBe(
      "a <b> ☺ ☃ &bogus; &",
    );
  });

  it("decodes entities once: escaped markup in a heading or link stays text", () => {
    const html =
      '<h2>a &amp;lt;b&amp;gt;</h2><p>x &lt; y <a href="/q?a=1&amp;amp;b">&amp;amp;</a></p>';
    expect(extractHtml(html, "markdown", "https://a.example/").content).toBe(
      "## a &lt;b&gt;\n\nx < y [&amp;](https://a.example/q?a=1&amp;b)",
    );
  });

  it("drops comments before reading tags, even comments holding a '<'", () => {
    expect(extractHtml("<p>a <!-- if (x<y) <div> --> b</p>", "text", "http://a.example/")).toEqual({
      title: undefined,
      content: "a b",
    });
  });

  // Each case took minutes before (every unclosed opener scanned to the end of the page again,
  // blocking the event loop); linear, they run in well under a second together. A regression
  // shows as this test hanging.
  it.each(["<title>", "<a href=x>", "<h1>", "<script>", "<main>", '<a href="x', "<"])(
    "reads a page of 200 000 %j openers that never close",
    (unit) => {
      const out = extractHtml(`<p>start</p>${unit.repeat(200_000)}`, "text", "http://a.example/");
      expect(out.content.startsWith("start")).toBe(true);
    },
  );
});
