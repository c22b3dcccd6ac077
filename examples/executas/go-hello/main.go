// go-hello — an Executa plugin (protocol 2.0) in Go, standard library only (Go 1.19+).
//
// Tools: greet (credential GREETING_PREFIX, falling back to the environment), ask (sampling with
// string reverse ids) and remember (storage/set + storage/get with integer reverse ids).
// Every invoke runs on its own goroutine; answers go out as they finish.
//
//	go run .
//	echo '{"jsonrpc":"2.0","id":1,"method":"describe"}' | go run .
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

const (
	protocolVersion = "2.0"
	pluginVersion   = "0.1.0"
	// On stdin EOF, invokes already running get this long to write their answers.
	eofGrace = 2 * time.Second
)

type plugin struct {
	wire     *wire
	host     *hostClient
	inflight sync.WaitGroup
}

func newPlugin(out io.Writer) *plugin {
	w := newWire(out)
	return &plugin{wire: w, host: newHostClient(w)}
}

// invocation is what a tool learns about the invoke it serves.
type invocation struct {
	Tool        string
	InvokeID    string
	DeadlineMs  int64
	Credentials map[string]interface{}
	Arguments   map[string]interface{}
}

func (inv *invocation) remaining() time.Duration {
	if inv.DeadlineMs <= 0 {
		return 0
	}
	return time.Until(time.UnixMilli(inv.DeadlineMs))
}

func parseInvocation(raw json.RawMessage) (*invocation, *rpcError) {
	var p struct {
		Tool      string                 `json:"tool"`
		Name      string                 `json:"name"`
		Arguments map[string]interface{} `json:"arguments"`
		InvokeID  string                 `json:"invoke_id"`
		Context   struct {
			InvokeID    string                 `json:"invoke_id"`
			DeadlineMs  float64                `json:"deadline_ms"`
			Credentials map[string]interface{} `json:"credentials"`
		} `json:"context"`
	}
	if len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, &rpcError{Code: -32602, Message: "Invalid params: " + err.Error()}
		}
	}
	inv := &invocation{Tool: p.Tool, InvokeID: p.Context.InvokeID, DeadlineMs: int64(p.Context.DeadlineMs), Credentials: p.Context.Credentials, Arguments: p.Arguments}
	if inv.Tool == "" {
		inv.Tool = p.Name
	}
	if inv.InvokeID == "" {
		inv.InvokeID = p.InvokeID
	}
	if inv.Arguments == nil {
		inv.Arguments = map[string]interface{}{}
	}
	return inv, nil
}

// credential reads context.credentials[name], then the environment variable of the same name.
func (inv *invocation) credential(name string) (string, string) {
	if v, ok := inv.Credentials[name].(string); ok && v != "" {
		return v, "context"
	}
	if v := os.Getenv(name); v != "" {
		return v, "env"
	}
	return "", "missing"
}

func (p *plugin) initialize(raw json.RawMessage) interface{} {
	var params struct {
		ProtocolVersion interface{} `json:"protocolVersion"`
	}
	_ = json.Unmarshal(raw, &params)
	offered, isString := params.ProtocolVersion.(string)
	// Compare the string exactly, as published plugins do: only "2.0" turns the clients on.
	enabled := isString && offered == protocolVersion
	p.host.setEnabled(enabled)
	answered := protocolVersion
	if !enabled {
		answered = "1.1"
		if isString {
			answered = offered
		}
		logf("warn", "host did not offer protocol 2.0; reverse clients disabled", map[string]interface{}{"offered": params.ProtocolVersion})
	}
	return map[string]interface{}{
		"protocolVersion":     answered,
		"serverInfo":          map[string]string{"name": "go-hello", "version": pluginVersion},
		"client_capabilities": map[string]interface{}{"sampling": map[string]interface{}{}, "storage": map[string]interface{}{}},
		"capabilities":        map[string]interface{}{"storage": map[string]interface{}{"kv": true}},
	}
}

func (p *plugin) serveInvoke(id json.RawMessage, raw json.RawMessage) {
	inv, perr := parseInvocation(raw)
	if perr != nil {
		p.wire.fail(id, perr)
		return
	}
	t, ok := tools[inv.Tool]
	if !ok {
		p.wire.fail(id, &rpcError{Code: -32601, Message: "Unknown tool: " + inv.Tool})
		return
	}
	if err := checkArguments(t.params, inv.Arguments); err != nil {
		p.wire.fail(id, err)
		return
	}
	data, failure := t.run(p, inv)
	if failure != "" {
		p.wire.reply(id, map[string]interface{}{"success": false, "error": failure, "tool": inv.Tool})
		return
	}
	p.wire.reply(id, map[string]interface{}{"success": true, "data": data, "tool": inv.Tool})
}

func (p *plugin) handle(m *message) {
	if m.Method == "" {
		p.host.deliver(m)
		return
	}
	if len(m.ID) == 0 {
		return // a notification: nothing to answer
	}
	switch m.Method {
	case "initialize":
		p.wire.reply(m.ID, p.initialize(m.Params))
	case "describe":
		p.wire.reply(m.ID, manifest)
	case "health":
		p.wire.reply(m.ID, map[string]string{"status": "ok"})
	case "shutdown":
		p.wire.reply(m.ID, map[string]interface{}{})
	case "invoke":
		p.inflight.Add(1)
		go func() {
			defer p.inflight.Done()
			p.serveInvoke(m.ID, m.Params)
		}()
	default:
		p.wire.fail(m.ID, &rpcError{Code: -32601, Message: "Method not found: " + m.Method})
	}
}

// drain lets invokes already started finish (their reverse calls fail at once), within a grace.
func (p *plugin) drain(grace time.Duration) {
	p.host.closeAll()
	done := make(chan struct{})
	go func() {
		p.inflight.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(grace):
	}
}

// serve reads frames until EOF. Lines have no length cap: bufio.Reader, not bufio.Scanner.
func (p *plugin) serve(in io.Reader) {
	r := bufio.NewReader(in)
	for {
		line, err := r.ReadBytes('\n')
		if trimmed := bytes.TrimSpace(line); len(trimmed) > 0 {
			var m message
			if jerr := json.Unmarshal(trimmed, &m); jerr != nil {
				p.wire.fail(nil, &rpcError{Code: -32700, Message: "Parse error: " + jerr.Error()})
			} else if ferr := resolveFileTransport(&m); ferr != nil {
				p.wire.fail(m.ID, &rpcError{Code: -32700, Message: "file transport: " + ferr.Error()})
			} else {
				p.handle(&m)
			}
		}
		if err != nil {
			return
		}
	}
}

func main() {
	// SIGTERM from the host is a normal stop: exit 0.
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM)
	go func() {
		<-stop
		os.Exit(0)
	}()
	logf("info", "go-hello started", map[string]interface{}{"version": pluginVersion})
	p := newPlugin(os.Stdout)
	p.serve(os.Stdin)
	p.drain(eofGrace)
	logf("info", "stdin closed, exiting", nil)
	os.Exit(0)
}
