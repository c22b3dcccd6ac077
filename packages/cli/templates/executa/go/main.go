// {{display_name}} — an Anna Executa plugin (protocol 2.0) in Go, standard library only.
//
// A long-running process speaking JSON-RPC 2.0 over stdio: one JSON object per line on stdin,
// one per line on stdout. stdout belongs to the protocol, so logs go to stderr.
//
//	anna-app executa dev --dir . --invoke hello --args '{"name":"Ada"}'
//	echo '{"jsonrpc":"2.0","id":1,"method":"describe"}' | go run .
//	go test ./...
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
)

const (
	pluginVersion = "0.1.0"
	// The host offers "2.0" in `initialize`; plugins answer with the version they speak.
	protocolVersion = "2.0"
)

// manifest is the bare manifest `describe` returns. The identity is the tool_id in executa.json
// ({{tool_id}}), not `name`.
var manifest = map[string]any{
	"name":         "{{slug}}",
	"display_name": "{{display_name}}",
	"version":      pluginVersion,
	"description":  "{{display_name}}: says hello.",
	"tools": []any{
		map[string]any{
			"name":        "hello",
			"description": "Greet someone by name.",
			"parameters": []any{
				map[string]any{"name": "name", "type": "string", "description": "Who to greet.", "required": true},
			},
		},
	},
	"credentials": []any{
		map[string]any{
			"name":         "HELLO_GREETING",
			"display_name": "Greeting",
			"description":  "The word to greet with. Defaults to Hello.",
			"required":     false,
			"sensitive":    false,
		},
	},
}

type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type helloData struct {
	Message        string `json:"message"`
	GreetingSource string `json:"greeting_source"`
}

type invokeParams struct {
	Tool      string                     `json:"tool"`
	Name      string                     `json:"name"`
	Arguments map[string]json.RawMessage `json:"arguments"`
	Context   struct {
		Credentials map[string]any `json:"credentials"`
	} `json:"context"`
}

// plugin serves one stdio session. getenv is the environment lookup, swapped out in tests.
type plugin struct {
	out    io.Writer
	getenv func(string) string
	mu     sync.Mutex
}

// send writes one frame. The id is echoed exactly as received (string or number).
func (p *plugin) send(id json.RawMessage, result any, rerr *rpcError) {
	frame := map[string]any{"jsonrpc": "2.0", "id": id}
	if id == nil {
		frame["id"] = nil
	}
	if rerr != nil {
		frame["error"] = rerr
	} else {
		frame["result"] = result
	}
	line, err := json.Marshal(frame)
	if err != nil {
		line, _ = json.Marshal(map[string]any{"jsonrpc": "2.0", "id": frame["id"], "error": rpcError{-32603, err.Error()}})
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	_, _ = p.out.Write(append(line, '\n'))
}

// credential prefers the value the host sent with the invoke; the environment is the local-dev
// fallback.
func (p *plugin) credential(credentials map[string]any, name string) (string, string) {
	if value, ok := credentials[name].(string); ok && value != "" {
		return value, "context"
	}
	if value := p.getenv(name); value != "" {
		return value, "env"
	}
	return "", "default"
}

func (p *plugin) hello(args map[string]json.RawMessage, credentials map[string]any) (any, *rpcError) {
	for key := range args {
		if key != "name" {
			return nil, &rpcError{-32602, "Invalid params for hello: unknown " + key}
		}
	}
	var name string
	if raw, ok := args["name"]; !ok || json.Unmarshal(raw, &name) != nil || strings.TrimSpace(name) == "" {
		return nil, &rpcError{-32602, "Invalid params for hello: name must be a non-empty string"}
	}
	greeting, source := p.credential(credentials, "HELLO_GREETING")
	if greeting == "" {
		greeting = "Hello"
	}
	return map[string]any{
		"success": true,
		"tool":    "hello",
		"data":    helloData{Message: fmt.Sprintf("%s, %s!", greeting, name), GreetingSource: source},
	}, nil
}

func (p *plugin) invoke(raw json.RawMessage) (any, *rpcError) {
	var params invokeParams
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &params); err != nil {
			return nil, &rpcError{-32602, "Invalid params: " + err.Error()}
		}
	}
	tool := params.Tool
	if tool == "" {
		tool = params.Name
	}
	switch tool {
	case "hello":
		return p.hello(params.Arguments, params.Context.Credentials)
	}
	return nil, &rpcError{-32601, "Unknown tool: " + tool}
}

// handle answers one request and reports whether the plugin should keep running.
func (p *plugin) handle(req request) bool {
	if req.Method == "" || len(req.ID) == 0 || string(req.ID) == "null" {
		return true // a response or a notification: nothing to answer
	}
	switch req.Method {
	case "initialize":
		p.send(req.ID, map[string]any{
			"protocolVersion": protocolVersion,
			"serverInfo":      map[string]any{"name": "{{slug}}", "version": pluginVersion},
			"capabilities":    map[string]any{},
		}, nil)
	case "describe":
		p.send(req.ID, manifest, nil)
	case "invoke":
		result, rerr := p.invoke(req.Params)
		p.send(req.ID, result, rerr)
	case "health":
		p.send(req.ID, map[string]any{"status": "healthy", "version": pluginVersion}, nil)
	case "shutdown":
		p.send(req.ID, map[string]any{}, nil)
		return false
	default:
		p.send(req.ID, nil, &rpcError{-32601, "Method not found: " + req.Method})
	}
	return true
}

// serve reads requests until EOF or shutdown. bufio.Reader has no line-length cap.
func (p *plugin) serve(in io.Reader) {
	reader := bufio.NewReader(in)
	for {
		line, err := reader.ReadBytes('\n')
		if trimmed := strings.TrimSpace(string(line)); trimmed != "" {
			var req request
			if jerr := json.Unmarshal([]byte(trimmed), &req); jerr != nil {
				p.send(nil, nil, &rpcError{-32700, "Parse error: " + jerr.Error()})
			} else if !p.handle(req) {
				logf("shutdown requested, exiting")
				return
			}
		}
		if err != nil {
			logf("stdin closed, exiting")
			return
		}
	}
}

// logf writes a JSON log line to stderr: stdout is reserved for protocol frames.
func logf(format string, args ...any) {
	line, _ := json.Marshal(map[string]string{"level": "info", "msg": fmt.Sprintf(format, args...)})
	fmt.Fprintln(os.Stderr, string(line))
}

func main() {
	// The host's SIGTERM is a normal stop, not a crash.
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM)
	go func() {
		<-signals
		os.Exit(0)
	}()
	logf("{{slug}} started (version %s)", pluginVersion)
	p := &plugin{out: os.Stdout, getenv: os.Getenv}
	p.serve(os.Stdin)
}
