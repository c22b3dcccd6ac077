// go-multi/main.go — a tiny protocol 1.1 plugin: text tools. It shares this folder with
// credential_plugin.go, a second `package main`; pick one with `go run main.go` or
// `go run credential_plugin.go` (`go run .` builds this one: the other file is tagged `ignore`).
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"sync"
)

type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Tool      string                 `json:"tool"`
		Arguments map[string]interface{} `json:"arguments"`
	} `json:"params"`
}

var manifest = map[string]interface{}{
	"display_name": "Text tools (Go multi example)",
	"version":      "0.1.0",
	"description":  "Upper-case or hash a string.",
	"tools": []map[string]interface{}{
		{"name": "upper", "description": "Upper-case a string.", "parameters": []map[string]interface{}{{"name": "text", "type": "string", "description": "Input", "required": true}}},
		{"name": "sha256", "description": "SHA-256 of a string.", "parameters": []map[string]interface{}{{"name": "text", "type": "string", "description": "Input", "required": true}}},
	},
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

func invoke(req *request) {
	text, ok := req.Params.Arguments["text"].(string)
	if !ok || len(req.Params.Arguments) != 1 {
		send(req.ID, "error", map[string]interface{}{"code": -32602, "message": "Invalid params: expected exactly {text: string}"})
		return
	}
	switch req.Params.Tool {
	case "upper":
		send(req.ID, "result", map[string]interface{}{"success": true, "data": map[string]string{"output": strings.ToUpper(text)}, "tool": "upper"})
	case "sha256":
		sum := sha256.Sum256([]byte(text))
		send(req.ID, "result", map[string]interface{}{"success": true, "data": map[string]string{"output": hex.EncodeToString(sum[:])}, "tool": "sha256"})
	default:
		send(req.ID, "error", map[string]interface{}{"code": -32601, "message": "Unknown tool: " + req.Params.Tool})
	}
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
				default: // initialize, health, shutdown: a v1 plugin knows none of them
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
