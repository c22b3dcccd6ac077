/* global document */
// Wires studio.js to the page: connect, restore the last book, make a new one (the story streams
// in word by word), ask the editor, and show every failure with its Host API code.
import { AnnaAppRuntime } from "/static/anna-apps/_sdk/latest/index.js";
import { createEditor, describeError, loadBook, makeBook } from "./studio.js";

const $ = (id) => document.getElementById(id);
const els = {
  status: $("status"),
  ideaForm: $("idea-form"),
  idea: $("idea"),
  make: $("make"),
  editorForm: $("editor-form"),
  question: $("question"),
  ask: $("ask"),
  editor: $("editor"),
  error: $("error"),
  book: $("book"),
  picture: $("picture"),
  placeholder: $("picture-placeholder"),
  title: $("title"),
  blurb: $("blurb"),
  story: $("story"),
};

let story = "";

function setStatus(text, state = "idle") {
  els.status.textContent = text;
  els.status.dataset.state = state;
}

function showError(error) {
  els.error.textContent = describeError(error);
  els.error.hidden = false;
  setStatus("Something went wrong", "error");
}

function clearError() {
  els.error.hidden = true;
  els.error.textContent = "";
}

function showBook(book) {
  story = book.story;
  els.title.textContent = book.title ?? "Untitled";
  els.blurb.textContent = book.blurb ?? "";
  els.story.textContent = book.story;
  if (book.image?.url) {
    els.picture.src = book.image.url;
    els.picture.alt = `An illustration of ${book.idea}`;
    els.picture.hidden = false;
    els.placeholder.hidden = true;
  }
  els.ask.disabled = false;
}

function resetBook() {
  story = "";
  els.title.textContent = "Untitled";
  els.blurb.textContent = "";
  els.story.textContent = "";
  els.story.dataset.tokens = "0";
  els.picture.hidden = true;
  els.picture.removeAttribute("src");
  els.placeholder.hidden = false;
  els.placeholder.textContent = "Painting…";
  els.editor.hidden = true;
  els.book.dataset.state = "writing";
}

const anna = await AnnaAppRuntime.connect();
const editor = createEditor(anna);
setStatus("Ready", "ready");

els.ideaForm.addEventListener("submit", (event) => {
  event.preventDefault();
  clearError();
  resetBook();
  els.make.disabled = true;
  els.ask.disabled = true;
  setStatus("Writing…", "busy");
  makeBook(anna, els.idea.value, {
    onStory: (text) => {
      els.story.textContent = text;
      els.story.dataset.tokens = String(Number(els.story.dataset.tokens) + 1);
    },
  })
    .then(({ book }) => {
      showBook(book);
      els.book.dataset.state = "done";
      setStatus("Saved", "ready");
    })
    .catch((error) => {
      els.book.dataset.state = "failed";
      els.placeholder.textContent = "No illustration";
      // The story may have streamed in full before the title, blurb or picture failed.
      if (els.story.textContent !== "") story = els.story.textContent;
      showError(error);
    })
    .finally(() => {
      els.make.disabled = false;
      if (story !== "") els.ask.disabled = false;
    });
});

els.editorForm.addEventListener("submit", (event) => {
  event.preventDefault();
  clearError();
  els.ask.disabled = true;
  els.editor.hidden = false;
  els.editor.textContent = "…";
  els.editor.dataset.state = "asking";
  setStatus("The editor is reading…", "busy");
  editor
    .ask(els.question.value, story, (text) => (els.editor.textContent = text))
    .then((answer) => {
      els.editor.textContent = answer;
      els.editor.dataset.state = "done";
      setStatus("Ready", "ready");
    })
    .catch((error) => {
      els.editor.hidden = true;
      showError(error);
    })
    .finally(() => (els.ask.disabled = false));
});

loadBook(anna)
  .then((book) => {
    if (book !== null) {
      showBook(book);
      els.idea.value = book.idea;
      els.book.dataset.state = "done";
    }
  })
  .catch(showError);
