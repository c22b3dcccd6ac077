// Where a JSON text goes wrong, for the simulate form's feedback: Chromium's JSON.parse message
// does not always carry a position. A strict RFC 8259 scan; called only after JSON.parse failed.

/** `{line, column}` (1-based) of the first character that is not valid JSON, or undefined. */
export function jsonErrorPosition(text) {
  let i = 0;
  const fail = () => {
    throw new RangeError(String(i));
  };
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const expect = (char) => {
    if (text[i] !== char) fail();
    i++;
  };
  const literal = (word) => {
    if (!text.startsWith(word, i)) fail();
    i += word.length;
  };
  const string = () => {
    expect('"');
    while (text[i] !== '"') {
      if (i >= text.length || text[i] < " ") fail();
      i += text[i] === "\\" ? 2 : 1;
    }
    i++;
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!match) fail();
    i += match[0].length;
  };
  const items = (close, item) => {
    i++;
    ws();
    if (text[i] === close) return void i++;
    for (;;) {
      item();
      ws();
      if (text[i] === close) return void i++;
      expect(",");
    }
  };
  const value = () => {
    ws();
    const c = text[i];
    if (c === "{") {
      items("}", () => {
        ws();
        string();
        ws();
        expect(":");
        value();
      });
    } else if (c === "[") items("]", value);
    else if (c === '"') string();
    else if (c === "t") literal("true");
    else if (c === "f") literal("false");
    else if (c === "n") literal("null");
    else if (c === "-" || (c >= "0" && c <= "9")) number();
    else fail();
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
    return undefined;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    const before = text.slice(0, Number(error.message)).split("\n");
    return { line: before.length, column: before.at(-1).length + 1 };
  }
}
