// The approval page a person opens from the CLI's link. Minimal and server-rendered until the
// dashboard takes it over: sign in if needed, then approve the code. Its script posts JSON to the
// same origin (so the CSRF guard sees our own Origin); framing is forbidden (clickjacking).
import { Hono } from "hono";
import type { AppDeps, Env } from "../http/context.js";
import { authenticate } from "../http/guards.js";
import { escapeHtml, setPageHeaders } from "../http/page-headers.js";
import { normaliseUserCode } from "../auth/secrets.js";

const esc = escapeHtml;

export function devicePageRoutes(deps: AppDeps): Hono<Env> {
  const app = new Hono<Env>();
  app.get("/device", async (c) => {
    const p = await authenticate(c, deps).catch(() => undefined);
    const code = normaliseUserCode(c.req.query("user_code") ?? "").slice(0, 16);
    const nonce = setPageHeaders(c);
    const signedIn = p?.via === "session";
    const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Approve CLI login — Anna Nexus</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}
label,input,button{display:block;width:100%;margin:.4rem 0;box-sizing:border-box}
input,button{padding:.5rem;font:inherit}#msg{margin-top:1rem}</style></head>
<body><h1>Approve CLI login</h1>
<p>Only approve a code that your own terminal shows you.</p>
<form id="f">
${
  signedIn
    ? `<p>Signed in as <b>${esc(p.user.email)}</b>.</p>`
    : `<label>Email <input name="email" type="email" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>`
}
<label>Code <input name="user_code" value="${esc(code)}" autocomplete="off" required></label>
<button type="submit">${signedIn ? "Approve" : "Sign in and approve"}</button></form>
<p id="msg" role="status"></p>
<script nonce="${nonce}">
const f=document.getElementById("f"),msg=document.getElementById("msg");
const post=(p,b)=>fetch(p,{method:"POST",headers:{"content-type":"application/json"},body:JSON.stringify(b),credentials:"same-origin"});
const why=async r=>{try{return (await r.json()).detail.message}catch{return "HTTP "+r.status}};
f.addEventListener("submit",async e=>{e.preventDefault();const d=new FormData(f);
if(d.get("email")!==null){const r=await post("/api/v1/auth/signin",{email:d.get("email"),password:d.get("password")});
if(!r.ok){msg.textContent=await why(r);return}}
const r=await post("/api/v1/anna-apps/dev/login/approve",{user_code:d.get("user_code")});
msg.textContent=r.ok?"Approved. You can return to your terminal.":await why(r)});
</script></body></html>`;
    return c.html(body);
  });
  return app;
}
