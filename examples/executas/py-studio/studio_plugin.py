#!/usr/bin/env python3
"""py-studio — an Executa plugin (protocol 2.0) that uses every reverse-RPC family.

sampling (plain and structured), storage with optimistic concurrency, files (begin → PUT →
complete → download URL), agent sessions and agent/complete, image generation, host upload
(inline, and negotiate → PUT → confirm), embeddings, progress notifications, and frames larger
than 512 KiB in both directions of file transport. Python 3.10+ standard library only.

Run it:  python3 studio_plugin.py   (then speak JSON-RPC on stdin, or use `anna-app executa dev`)
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import sys
import urllib.request

# Published plugins find their helpers next to their own file, whatever the working directory.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from executa_stdio import Plugin, RpcError, log  # noqa: E402

VERSION = "0.1.0"
PRECONDITION_FAILED = -32023
MAX_WRITE_ATTEMPTS = 3
HTTP_PUT_TIMEOUT_S = 30
NOTES_PREFIX = "notebooks/"

MANIFEST = {
    "display_name": "Studio (example)",
    "version": VERSION,
    "description": "Reference plugin that exercises every reverse-RPC family of protocol 2.0.",
    "author": "Anna examples",
    "icon": "🎛",
    "category": "examples",
    "license": "Apache-2.0",
    "host_capabilities": ["llm.sample", "llm.agent.auto", "aps.kv", "aps.files", "llm.image", "host.upload", "llm.embed"],
    "tools": [
        {
            "name": "summarize",
            "description": "Summarize a text with the user's model (sampling).",
            "parameters": [
                {"name": "text", "type": "string", "description": "Text to summarize.", "required": True},
                {"name": "max_tokens", "type": "integer", "description": "Token budget.", "required": False, "default": 200},
            ],
        },
        {
            "name": "extract",
            "description": "Extract a title and keywords as JSON (sampling with a json_schema responseFormat).",
            "parameters": [{"name": "text", "type": "string", "description": "Source text.", "required": True}],
        },
        {
            "name": "note_add",
            "description": "Append a note to a notebook kept in plugin storage (retries on a conflicting write).",
            "parameters": [
                {"name": "notebook", "type": "string", "description": "Notebook name.", "required": True},
                {"name": "text", "type": "string", "description": "Note text.", "required": True},
            ],
        },
        {
            "name": "note_list",
            "description": "List notebooks in plugin storage.",
            "parameters": [{"name": "limit", "type": "integer", "description": "Page size.", "required": False, "default": 50}],
        },
        {
            "name": "note_delete",
            "description": "Delete a notebook.",
            "parameters": [{"name": "notebook", "type": "string", "description": "Notebook name.", "required": True}],
        },
        {
            "name": "save_file",
            "description": "Save text as a file in the user's drive and return a download URL.",
            "parameters": [
                {"name": "path", "type": "string", "description": "Relative path, e.g. reports/today.txt.", "required": True},
                {"name": "text", "type": "string", "description": "File content.", "required": True},
                {"name": "content_type", "type": "string", "description": "MIME type.", "required": False, "default": "text/plain"},
                {"name": "scope", "type": "string", "description": "Storage scope.", "required": False, "default": "user", "enum": ["user", "tool"]},
            ],
        },
        {
            "name": "plan",
            "description": "Ask a multi-turn agent session for a plan, then delete the session.",
            "timeout": 180,
            "parameters": [{"name": "goal", "type": "string", "description": "What to plan.", "required": True}],
        },
        {
            "name": "ask_complete",
            "description": "One-shot completion through agent/complete.",
            "parameters": [{"name": "prompt", "type": "string", "description": "Prompt.", "required": True}],
        },
        {
            "name": "poster",
            "description": "Generate images from a prompt.",
            "timeout": 180,
            "parameters": [
                {"name": "prompt", "type": "string", "description": "Image prompt.", "required": True},
                {"name": "n", "type": "integer", "description": "How many images.", "required": False, "default": 1},
                {"name": "size", "type": "string", "description": "WxH.", "required": False, "default": "1024x1024", "enum": ["512x512", "1024x1024"]},
            ],
        },
        {
            "name": "share_text",
            "description": "Upload text to host storage and return a short-lived download URL.",
            "parameters": [
                {"name": "filename", "type": "string", "description": "File name.", "required": True},
                {"name": "text", "type": "string", "description": "Content.", "required": True},
                {"name": "mode", "type": "string", "description": "inline or presigned (negotiate → PUT → confirm).", "required": False, "default": "inline", "enum": ["inline", "presigned"]},
            ],
        },
        {
            "name": "big_upload",
            "description": "Upload a generated binary inline: the reverse request is larger than 512 KiB.",
            "parameters": [{"name": "size_kib", "type": "integer", "description": "Size in KiB.", "required": False, "default": 600}],
        },
        {
            "name": "embed",
            "description": "Embed texts with the host's embedding model.",
            "parameters": [
                {"name": "texts", "type": "array", "items": {"type": "string"}, "description": "Texts to embed.", "required": True},
                {"name": "model", "type": "string", "description": "Host model alias.", "required": False},
            ],
        },
        {
            "name": "long_task",
            "description": "Run a few steps, reporting progress after each.",
            "parameters": [{"name": "steps", "type": "integer", "description": "Number of steps.", "required": False, "default": 3}],
        },
        {
            "name": "big_result",
            "description": "Return a result of about size_kib KiB (sent through file transport).",
            "parameters": [{"name": "size_kib", "type": "integer", "description": "Size in KiB.", "required": False, "default": 1024}],
        },
        {
            "name": "context_report",
            "description": "Report which invoke context fields arrived (never their secret values).",
            "parameters": [],
        },
    ],
}

plugin = Plugin(
    MANIFEST,
    server_info={"name": "py-studio", "version": VERSION},
    client_capabilities={
        "sampling": {},
        "agent": {"submodes": ["auto"]},
        "storage": {},
        "image": {},
        "upload": {},
        "embeddings": {},
        "embed": {},
    },
    capabilities={"storage": {"kv": True, "files": True}},
)


def _text_of(result: dict) -> str:
    """Completion text from the MCP shape ({content: {type, text}}) or a plain `text`."""
    content = result.get("content")
    if isinstance(content, dict):
        return str(content.get("text", ""))
    if isinstance(content, list):
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    if isinstance(content, str):
        return content
    return str(result.get("text", ""))


def _http_put(url: str, body: bytes, headers: dict) -> tuple[int, str | None]:
    request = urllib.request.Request(url, data=body, method="PUT", headers=headers)
    with urllib.request.urlopen(request, timeout=HTTP_PUT_TIMEOUT_S) as response:
        return response.status, response.headers.get("ETag")


@plugin.tool("summarize")
def summarize(text: str, max_tokens: int = 200):
    result = plugin.call(
        "sampling/createMessage",
        {
            "messages": [{"role": "user", "content": {"type": "text", "text": f"Summarize:\n{text}"}}],
            "maxTokens": max_tokens,
            "systemPrompt": "You are a concise assistant.",
            "temperature": 0.3,
            "includeContext": "none",
            "_clientTimeoutS": 90,
        },
    )
    return {"summary": _text_of(result), "model": result.get("model"), "usage": result.get("usage")}


EXTRACT_SCHEMA = {
    "type": "object",
    "properties": {"title": {"type": "string"}, "keywords": {"type": "array", "items": {"type": "string"}}},
    "required": ["title", "keywords"],
    "additionalProperties": False,
}


@plugin.tool("extract")
def extract(text: str):
    result = plugin.call(
        "sampling/createMessage",
        {
            "messages": [{"role": "user", "content": {"type": "text", "text": f"Reply with a JSON object (title, keywords) for:\n{text}"}}],
            "maxTokens": 300,
            "includeContext": "none",
            "responseFormat": {"type": "json_schema", "json_schema": {"name": "extraction", "strict": True, "schema": EXTRACT_SCHEMA}},
            "onUnsupported": "json_object",
        },
    )
    raw = _text_of(result)
    try:
        fields = json.loads(raw)
    except json.JSONDecodeError:
        fields = None  # responseFormat narrows the output; the final parse is still ours
    meta = (result.get("_meta") or {}).get("responseFormat")
    return {"fields": fields, "raw": raw, "structured": fields is not None, "response_format": meta}


@plugin.tool("note_add")
def note_add(notebook: str, text: str):
    key = NOTES_PREFIX + notebook
    for attempt in range(1, MAX_WRITE_ATTEMPTS + 1):
        current = plugin.call("storage/get", {"key": key, "scope": "tool"})
        # `exists`, not the truthiness of `value`: an empty list is a real notebook.
        notes = list(current.get("value") or []) if current.get("exists") else []
        notes.append({"text": text})
        params = {"key": key, "value": notes, "scope": "tool"}
        if current.get("exists") and current.get("etag"):
            params["if_match"] = current["etag"]
        try:
            written = plugin.call("storage/set", params)
        except RpcError as exc:
            if exc.code == PRECONDITION_FAILED and attempt < MAX_WRITE_ATTEMPTS:
                log("storage/set lost a race; re-reading", key=key, attempt=attempt)
                continue
            raise
        return {"notebook": notebook, "count": len(notes), "etag": written.get("etag"), "attempts": attempt}
    return {"success": False, "error": "notebook kept changing; try again"}


@plugin.tool("note_list")
def note_list(limit: int = 50):
    page = plugin.call("storage/list", {"scope": "tool", "prefix": NOTES_PREFIX, "limit": limit})
    names = []
    for item in page.get("items") or []:
        key = item.get("key") if isinstance(item, dict) else item
        if isinstance(key, str):
            names.append(key[len(NOTES_PREFIX):] if key.startswith(NOTES_PREFIX) else key)
    return {"notebooks": names, "next_cursor": page.get("next_cursor")}


@plugin.tool("note_delete")
def note_delete(notebook: str):
    result = plugin.call("storage/delete", {"key": NOTES_PREFIX + notebook, "scope": "tool"})
    return {"notebook": notebook, "deleted": bool(result.get("deleted"))}


@plugin.tool("save_file")
def save_file(path: str, text: str, content_type: str = "text/plain", scope: str = "user"):
    body = text.encode("utf-8")
    begin = plugin.call("files/upload_begin", {"path": path, "scope": scope, "size_bytes": len(body), "content_type": content_type})
    put_url = begin.get("put_url") or begin.get("presigned_url")
    if not put_url:
        return {"success": False, "error": "files/upload_begin returned no put_url"}
    status, etag = _http_put(put_url, body, {**(begin.get("headers") or {}), "Content-Type": content_type})
    if status not in (200, 201) or not etag:
        return {"success": False, "error": f"upload failed: HTTP {status}, etag={etag!r}"}
    done = plugin.call("files/upload_complete", {"path": path, "scope": scope, "etag": etag, "size_bytes": len(body), "content_type": content_type})
    link = plugin.call("files/download_url", {"path": path, "scope": scope, "expires_in": 300})
    return {
        "path": path,
        "scope": scope,
        "etag": done.get("etag") or etag,
        "size_bytes": done.get("size_bytes", len(body)),
        "download_url": link.get("get_url") or link.get("url"),
        "expires_at": link.get("expires_at"),
    }


@plugin.tool("plan")
def plan(goal: str):
    session = plugin.call("agent/session.create", {"kind": "agent", "agent_submode": "auto", "label": "py-studio plan", "ttl_seconds": 600})
    session_id = session["app_session_uuid"]
    try:
        run = plugin.call("agent/session.run", {"app_session_uuid": session_id, "content": goal, "recursion_limit": 8})
    finally:
        plugin.call("agent/session.delete", {"app_session_uuid": session_id})
    frames = run.get("frames") or []
    streamed = "".join(str(f.get("text", "")) for f in frames if f.get("event") in ("delta", "token"))
    final = next((f for f in frames if f.get("event") == "final"), None)
    if final is None:
        final = run.get("final") if isinstance(run.get("final"), dict) else {}
    messages = "".join(str(f.get("text", "")) for f in frames if f.get("event") == "message")
    return {
        "plan": final.get("text") or streamed or messages,
        "frames": len(frames),
        "tool_calls": [f.get("name") for f in frames if f.get("event") == "tool_call"],
        "thread_id": session.get("thread_id"),
        "run_id": run.get("run_id"),
    }


@plugin.tool("ask_complete")
def ask_complete(prompt: str):
    result = plugin.call("agent/complete", {"messages": [{"role": "user", "content": {"type": "text", "text": prompt}}], "maxTokens": 200})
    return {"answer": _text_of(result), "model": result.get("model")}


@plugin.tool("poster")
def poster(prompt: str, n: int = 1, size: str = "1024x1024"):
    result = plugin.call("image/generate", {"prompt": prompt, "n": n, "size": size})
    images = result.get("images") or []
    return {"urls": [image.get("url") for image in images], "model": result.get("model"), "count": len(images)}


def _upload(filename: str, body: bytes, mime_type: str, mode: str) -> dict:
    if mode == "inline":
        return plugin.call(
            "host/uploadFile",
            {"mode": "inline", "filename": filename, "mime_type": mime_type, "purpose": "user_artifact", "content_b64": base64.b64encode(body).decode("ascii")},
        )
    offer = plugin.call(
        "host/uploadFile",
        {"mode": "negotiate", "filename": filename, "mime_type": mime_type, "purpose": "user_artifact", "size_bytes": len(body), "expected_bytes": len(body)},
    )
    status, _etag = _http_put(offer["put_url"], body, {**(offer.get("headers") or {}), "Content-Type": mime_type})
    if status not in (200, 201):
        raise RpcError(-32207, f"PUT to put_url failed with HTTP {status}", {"errorCode": "STORAGE_ERROR"})
    return plugin.call("host/uploadFile", {"mode": "confirm", "r2_key": offer["r2_key"]})


@plugin.tool("share_text")
def share_text(filename: str, text: str, mode: str = "inline"):
    if mode not in ("inline", "presigned"):
        raise RpcError(-32602, f"mode must be inline or presigned, not {mode}")
    result = _upload(filename, text.encode("utf-8"), "text/plain", mode)
    return {"download_url": result.get("download_url") or result.get("url"), "r2_key": result.get("r2_key"), "size_bytes": result.get("size_bytes"), "expires_at": result.get("expires_at")}


def _pattern_bytes(size: int) -> bytes:
    """Deterministic bytes, so a test can recompute the digest."""
    block = hashlib.sha256(b"py-studio").digest()
    return (block * (size // len(block) + 1))[:size]


@plugin.tool("big_upload")
def big_upload(size_kib: int = 600):
    body = _pattern_bytes(size_kib * 1024)
    result = _upload("big.bin", body, "application/octet-stream", "inline")
    return {"download_url": result.get("download_url") or result.get("url"), "size_bytes": len(body), "sha256": hashlib.sha256(body).hexdigest()}


@plugin.tool("embed")
def embed(texts: list, model: str | None = None):
    params: dict = {"input": texts}
    if model:
        params["model"] = model
    result = plugin.call("embeddings/create", params)
    vectors = [item.get("embedding") or [] for item in result.get("data") or []]
    return {"model": result.get("model"), "count": len(vectors), "dimensions": len(vectors[0]) if vectors else 0}


@plugin.tool("long_task")
def long_task(steps: int = 3):
    for step in range(1, steps + 1):
        plugin.emit_progress("tool_update", {"step": step, "total": steps})
    return {"steps": steps}


@plugin.tool("big_result")
def big_result(size_kib: int = 1024):
    blob = _pattern_bytes(size_kib * 1024 // 2).hex()  # hex doubles the length: size_kib KiB of text
    return {"bytes": len(blob), "sha256": hashlib.sha256(blob.encode("ascii")).hexdigest(), "blob": blob}


@plugin.tool("context_report")
def context_report():
    current = plugin.invoke
    return {
        "invoke_id": current.invoke_id,
        "plugin_name": current.plugin_name,
        "deadline_ms": current.deadline_ms,
        "context_keys": sorted(current.context.keys()),
        "credential_names": sorted(current.credentials.keys()),
        "reverse_enabled": plugin.reverse_enabled,
    }


def main() -> int:
    return plugin.run()


if __name__ == "__main__":
    sys.exit(main())
