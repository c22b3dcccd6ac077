package main

// Plugin-level tests: no host needed. The test plays the host on a pair of pipes.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

type fakeHost struct {
	t     *testing.T
	in    *io.PipeWriter // what the plugin reads
	lines chan map[string]interface{}
}

func startPlugin(t *testing.T) *fakeHost {
	t.Helper()
	pluginIn, hostOut := io.Pipe()
	hostIn, pluginOut := io.Pipe()
	go newPlugin(pluginOut).serve(pluginIn)
	h := &fakeHost{t: t, in: hostOut, lines: make(chan map[string]interface{}, 16)}
	go func() {
		r := bufio.NewReader(hostIn)
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				return
			}
			var m map[string]interface{}
			if json.Unmarshal(line, &m) == nil {
				h.lines <- m
			}
		}
	}()
	t.Cleanup(func() { hostOut.Close(); pluginOut.Close() })
	return h
}

func (h *fakeHost) send(frame string) {
	if _, err := io.WriteString(h.in, frame+"\n"); err != nil {
		h.t.Fatal(err)
	}
}

func (h *fakeHost) next() map[string]interface{} {
	select {
	case m := <-h.lines:
		return m
	case <-time.After(2 * time.Second):
		h.t.Fatal("no frame from the plugin within 2s")
		return nil
	}
}

func TestGreetFallsBackToTheEnvironment(t *testing.T) {
	t.Setenv("GREETING_PREFIX", "Howdy")
	h := startPlugin(t)
	h.send(`{"jsonrpc":"2.0","id":1,"method":"invoke","params":{"tool":"greet","arguments":{"name":"Ann"},"context":{}}}`)
	data := h.next()["result"].(map[string]interface{})["data"].(map[string]interface{})
	if data["greeting"] != "Howdy, Ann!" || data["prefix_source"] != "env" {
		t.Fatalf("unexpected data: %v", data)
	}
}

func TestRememberUsesIntegerReverseIds(t *testing.T) {
	h := startPlugin(t)
	h.send(`{"jsonrpc":"2.0","id":"inv-1","method":"invoke","params":{"tool":"remember","arguments":{"key":"k","value":"v"},"context":{"invoke_id":"abc"}}}`)
	set := h.next()
	id, isNumber := set["id"].(float64)
	if !isNumber || set["method"] != "storage/set" {
		t.Fatalf("expected storage/set with an integer id, got %v", set)
	}
	reply, _ := json.Marshal(map[string]interface{}{"jsonrpc": "2.0", "id": int64(id), "result": map[string]interface{}{"etag": "e1"}})
	h.send(string(reply))
	get := h.next()
	reply, _ = json.Marshal(map[string]interface{}{"jsonrpc": "2.0", "id": get["id"], "result": map[string]interface{}{"value": "v", "exists": true, "etag": "e1"}})
	h.send(string(reply))
	result := h.next()["result"].(map[string]interface{})
	if result["success"] != true || result["data"].(map[string]interface{})["value"] != "v" {
		t.Fatalf("unexpected result: %v", result)
	}
}

func TestFramesOver512KiBGoThroughFileTransport(t *testing.T) {
	var out bytes.Buffer
	big := strings.Repeat("x", fileTransportThresholdBytes)
	id := json.RawMessage(`"r-1"`)
	newWire(&out).reply(id, map[string]string{"blob": big})
	var pointer map[string]interface{}
	if err := json.Unmarshal(out.Bytes(), &pointer); err != nil {
		t.Fatal(err)
	}
	path, _ := pointer["__file_transport"].(string)
	if pointer["id"] != "r-1" || path == "" || pointer["result"] != nil {
		t.Fatalf("expected a pointer line, got %s", out.String())
	}
	defer os.Remove(path)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var frame struct {
		Result map[string]string `json:"result"`
	}
	if err := json.Unmarshal(data, &frame); err != nil || frame.Result["blob"] != big {
		t.Fatalf("file does not hold the frame: %v", err)
	}
}
