package main

// The stdio wire: newline-delimited JSON-RPC 2.0, one writer lock, a flush per frame, and
// __file_transport for frames over 512 KiB (the host reads the file and deletes it).

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

const fileTransportThresholdBytes = 512 * 1024

// message is any incoming frame. IDs stay raw so they are echoed byte for byte, type included.
type message struct {
	JSONRPC       string          `json:"jsonrpc"`
	ID            json.RawMessage `json:"id,omitempty"`
	Method        string          `json:"method,omitempty"`
	Params        json.RawMessage `json:"params,omitempty"`
	Result        json.RawMessage `json:"result,omitempty"`
	Error         *rpcError       `json:"error,omitempty"`
	FileTransport string          `json:"__file_transport,omitempty"`
}

type rpcError struct {
	Code    int         `json:"code"`
	Message string      `json:"message"`
	Data    interface{} `json:"data,omitempty"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%d %s", e.Code, e.Message) }

type successFrame struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  interface{}     `json:"result"`
}

type errorFrame struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   *rpcError       `json:"error"`
}

type requestFrame struct {
	JSONRPC string      `json:"jsonrpc"`
	ID      interface{} `json:"id,omitempty"`
	Method  string      `json:"method"`
	Params  interface{} `json:"params"`
}

type pointerFrame struct {
	JSONRPC       string      `json:"jsonrpc"`
	ID            interface{} `json:"id"`
	FileTransport string      `json:"__file_transport"`
}

type wire struct {
	mu  sync.Mutex
	out *bufio.Writer
}

func newWire(w io.Writer) *wire { return &wire{out: bufio.NewWriter(w)} }

// send writes one frame; id is what a file-transport pointer must carry (nil for notifications).
func (w *wire) send(frame interface{}, id interface{}) error {
	data, err := json.Marshal(frame)
	if err != nil {
		return err
	}
	if len(data) > fileTransportThresholdBytes && id != nil {
		path, err := writeTempFrame(data)
		if err != nil {
			return err
		}
		if data, err = json.Marshal(pointerFrame{JSONRPC: "2.0", ID: id, FileTransport: path}); err != nil {
			return err
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := w.out.Write(append(data, '\n')); err != nil {
		return err
	}
	return w.out.Flush()
}

func writeTempFrame(data []byte) (string, error) {
	f, err := os.CreateTemp("", "executa-msg-*.json")
	if err != nil {
		return "", err
	}
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		return "", err
	}
	return f.Name(), nil
}

func (w *wire) reply(id json.RawMessage, result interface{}) {
	_ = w.send(successFrame{JSONRPC: "2.0", ID: id, Result: result}, id)
}

func (w *wire) fail(id json.RawMessage, err *rpcError) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	_ = w.send(errorFrame{JSONRPC: "2.0", ID: id, Error: err}, id)
}

// resolveFileTransport replaces a pointer frame by the frame stored in the file.
func resolveFileTransport(m *message) error {
	if m.FileTransport == "" {
		return nil
	}
	path := m.FileTransport
	defer os.Remove(path)
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	*m = message{}
	return json.Unmarshal(data, m)
}

// logf writes a JSON log line to stderr: stdout belongs to the protocol.
func logf(level, msg string, fields map[string]interface{}) {
	entry := map[string]interface{}{"level": level, "msg": msg, "ts": time.Now().UTC().Format(time.RFC3339Nano)}
	for k, v := range fields {
		entry[k] = v
	}
	data, _ := json.Marshal(entry)
	fmt.Fprintln(os.Stderr, string(data))
}
