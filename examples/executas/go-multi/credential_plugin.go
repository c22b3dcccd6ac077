//go:build ignore

// go-multi/credential_plugin.go — a second protocol 1.1 plugin in the same folder (run it with
// `go run credential_plugin.go`). It reports which declared credentials it can see, as redacted
// previews: context.credentials first, then environment variables of the same names.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"sync"
)

var credentialNames = []string{"SERVICE_TOKEN", "SERVICE_REGION"}

var manifest = map[string]interface{}{
	"name":         "credential-check",
	"display_name": "Credential check (Go multi example)",
	"version":      "0.1.0",
	"description":  "Shows which credentials reach the plugin, redacted.",
	"tools": []map[string]interface{}{
		{"name": "check_credentials", "description": "Report configured credentials (redacted).", "parameters": []map[string]interface{}{}},
	},
	"credentials": []map[string]interface{}{
		{"name": "SERVICE_TOKEN", "display_name": "Service token", "required": true, "sensitive": true},
		{"name": "SERVICE_REGION", "display_name": "Region", "required": false, "sensitive": false, "default": "eu"},
	},
}

type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Tool    string `json:"tool"`
		Context struct {
			Credentials map[string]interface{} `json:"credentials"`
		} `json:"context"`
	} `json:"params"`
}

var (
	mu       sync.Mutex
	inflight sync.WaitGroup
)

func send(id json.RawMessage, key string, value interface{}) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	data, _ := json.Marshal(map[string]interface{}{"jsonrpc": "2.0", "id": id, key: value})
	mu.Lock()
	defer mu.Unlock()
	os.Stdout.Write(append(data, '\n'))
}

// redact keeps the last four characters: anything in `data` is shown to the LLM.
func redact(v string) string {
	if len(v) <= 4 {
		return "…"
	}
	return "…" + v[len(v)-4:]
}

func invoke(req *request) {
	if req.Params.Tool != "check_credentials" {
		send(req.ID, "error", map[string]interface{}{"code": -32601, "message": "Unknown tool: " + req.Params.Tool})
		return
	}
	report := map[string]interface{}{}
	for _, name := range credentialNames {
		entry := map[string]string{"source": "missing"}
		if v, ok := req.Params.Context.Credentials[name].(string); ok && v != "" {
			entry = map[string]string{"source": "context", "preview": redact(v)}
		} else if v := os.Getenv(name); v != "" {
			entry = map[string]string{"source": "env", "preview": redact(v)}
		}
		report[name] = entry
	}
	send(req.ID, "result", map[string]interface{}{"success": true, "data": report, "tool": "check_credentials"})
}

func main() {
	r := bufio.NewReader(os.Stdin)
	for {
		line, err := r.ReadBytes('\n')
		if line = bytes.TrimSpace(line); len(line) > 0 {
			var req request
			if jerr := json.Unmarshal(line, &req); jerr != nil {
				send(nil, "error", map[string]interface{}{"code": -32700, "message": "Parse error: " + jerr.Error()})
			} else if req.Method != "" && len(req.ID) > 0 {
				switch req.Method {
				case "describe":
					send(req.ID, "result", manifest)
				case "invoke":
					inflight.Add(1)
					go func(req *request) { defer inflight.Done(); invoke(req) }(&req)
				default:
					send(req.ID, "error", map[string]interface{}{"code": -32601, "message": "Method not found: " + req.Method})
				}
			}
		}
		if err != nil { // EOF: finish the invokes already started, then exit 0
			inflight.Wait()
			os.Exit(0)
		}
	}
}
