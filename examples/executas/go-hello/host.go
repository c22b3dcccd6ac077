package main

// The reverse-RPC client: requests from this plugin to the host while an invoke runs.
// Sampling uses 32-hex string ids, storage uses integer ids; answers are matched by id AND type,
// so a host that echoes 1001 as "1001" is never matched (and the call times out).

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"time"
)

const defaultReverseTimeout = 60 * time.Second

var errHostGone = &rpcError{Code: -32000, Message: "host closed stdin", Data: map[string]interface{}{"errorCode": "PROCESS_EXITED"}}

type hostClient struct {
	wire    *wire
	mu      sync.Mutex
	pending map[string]chan *message
	nextInt int64
	// enabled is false after an initialize that did not offer exactly "2.0".
	enabled bool
	// closed is set at stdin EOF: no answer can arrive any more.
	closed bool
}

func newHostClient(w *wire) *hostClient {
	return &hostClient{wire: w, pending: map[string]chan *message{}, nextInt: 1000, enabled: true}
}

func (h *hostClient) setEnabled(on bool) {
	h.mu.Lock()
	h.enabled = on
	h.mu.Unlock()
}

func (h *hostClient) isEnabled() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.enabled
}

// idKey keys a raw JSON id by type and value: `"7"` and `7` are different ids.
func idKey(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 {
		return "", false
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		return "s:" + s, true
	}
	return "n:" + string(raw), true
}

func newHexID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// call sends a reverse request for inv and waits for the answer.
func (h *hostClient) call(inv *invocation, method string, params map[string]interface{}, integerID bool) (json.RawMessage, error) {
	if !h.isEnabled() {
		code, name := -32008, "SAMPLING_NOT_NEGOTIATED"
		if len(method) >= 8 && method[:8] == "storage/" {
			code, name = -32021, "STORAGE_NOT_GRANTED"
		}
		return nil, &rpcError{Code: code, Message: method + ": protocol 2.0 was not negotiated", Data: map[string]interface{}{"errorCode": name}}
	}
	metadata := map[string]interface{}{"executa_invoke_id": inv.InvokeID, "tool": inv.Tool}
	params["metadata"] = metadata
	if inv.InvokeID != "" {
		params["context"] = map[string]interface{}{"invoke_id": inv.InvokeID}
	}

	var id interface{}
	var key string
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil, errHostGone
	}
	if integerID {
		h.nextInt++
		id = h.nextInt
		key = "n:" + strconv.FormatInt(h.nextInt, 10)
	} else {
		s := newHexID()
		id = s
		key = "s:" + s
	}
	answer := make(chan *message, 1)
	h.pending[key] = answer
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(h.pending, key)
		h.mu.Unlock()
	}()

	if err := h.wire.send(requestFrame{JSONRPC: "2.0", ID: id, Method: method, Params: params}, id); err != nil {
		return nil, err
	}
	timeout := defaultReverseTimeout
	if left := inv.remaining(); left > 0 && left < timeout {
		timeout = left
	}
	select {
	case m := <-answer:
		if m.Error != nil {
			return nil, m.Error
		}
		return m.Result, nil
	case <-time.After(timeout):
		return nil, &rpcError{Code: -32000, Message: fmt.Sprintf("%s: no answer within %s", method, timeout), Data: map[string]interface{}{"errorCode": "TIMEOUT"}}
	}
}

// closeAll fails every waiting call: after stdin EOF no answer can arrive.
func (h *hostClient) closeAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for key, answer := range h.pending {
		select {
		case answer <- &message{Error: errHostGone}:
		default:
		}
		delete(h.pending, key)
	}
}

// deliver hands a response frame to the call waiting for it.
func (h *hostClient) deliver(m *message) {
	key, ok := idKey(m.ID)
	h.mu.Lock()
	answer, found := h.pending[key]
	h.mu.Unlock()
	if !ok || !found {
		logf("warn", "unmatched response", map[string]interface{}{"id": string(m.ID)})
		return
	}
	select {
	case answer <- m:
	default: // a duplicate answer: the first one won
	}
}
