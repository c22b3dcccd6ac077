package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// run serves the requests (one JSON line each) until EOF and returns the answers by id.
func run(t *testing.T, env map[string]string, lines ...string) map[string]map[string]any {
	t.Helper()
	var out bytes.Buffer
	p := &plugin{out: &out, getenv: func(name string) string { return env[name] }}
	p.serve(strings.NewReader(strings.Join(lines, "\n") + "\n"))
	answers := map[string]map[string]any{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var answer map[string]any
		if err := json.Unmarshal([]byte(line), &answer); err != nil {
			t.Fatalf("not JSON: %q", line)
		}
		id, _ := json.Marshal(answer["id"])
		answers[string(id)] = answer
	}
	return answers
}

func invokeLine(id int, tool string, args string, credentials string) string {
	context := `{"invoke_id":"inv"}`
	if credentials != "" {
		context = `{"invoke_id":"inv","credentials":` + credentials + `}`
	}
	return `{"jsonrpc":"2.0","id":` + itoa(id) + `,"method":"invoke","params":{"tool":"` + tool +
		`","name":"` + tool + `","arguments":` + args + `,"invoke_id":"inv","context":` + context + `}}`
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func result(t *testing.T, answer map[string]any) map[string]any {
	t.Helper()
	r, ok := answer["result"].(map[string]any)
	if !ok {
		t.Fatalf("no result in %v", answer)
	}
	return r
}

func errorCode(t *testing.T, answer map[string]any) float64 {
	t.Helper()
	e, ok := answer["error"].(map[string]any)
	if !ok {
		t.Fatalf("no error in %v", answer)
	}
	return e["code"].(float64)
}

func TestHandshakeAnswersInitializeDescribeAndHealth(t *testing.T) {
	answers := run(t, nil,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2.0"}}`,
		`{"jsonrpc":"2.0","id":"two","method":"describe"}`,
		`{"jsonrpc":"2.0","id":3,"method":"health"}`,
	)
	if v := result(t, answers["1"])["protocolVersion"]; v != "2.0" {
		t.Errorf("protocolVersion = %v", v)
	}
	tools := result(t, answers[`"two"`])["tools"].([]any)
	if len(tools) != 1 || tools[0].(map[string]any)["name"] != "hello" {
		t.Errorf("tools = %v", tools)
	}
	if s := result(t, answers["3"])["status"]; s != "healthy" {
		t.Errorf("status = %v", s)
	}
}

func TestShutdownAnswersAndStopsServing(t *testing.T) {
	answers := run(t, nil,
		`{"jsonrpc":"2.0","id":1,"method":"shutdown"}`,
		`{"jsonrpc":"2.0","id":2,"method":"health"}`,
	)
	if _, ok := answers["1"]["result"]; !ok {
		t.Errorf("shutdown got no result: %v", answers["1"])
	}
	if _, ok := answers["2"]; ok {
		t.Errorf("a request after shutdown was answered")
	}
}

func TestNonJSONLineGetsAParseErrorAndThePluginCarriesOn(t *testing.T) {
	answers := run(t, nil, "not json", `{"jsonrpc":"2.0","id":1,"method":"health"}`)
	if code := errorCode(t, answers["null"]); code != -32700 {
		t.Errorf("code = %v", code)
	}
	if s := result(t, answers["1"])["status"]; s != "healthy" {
		t.Errorf("status = %v", s)
	}
}

func TestHelloGreetsByName(t *testing.T) {
	answers := run(t, nil, invokeLine(1, "hello", `{"name":"Ada"}`, ""))
	data := result(t, answers["1"])["data"].(map[string]any)
	if data["message"] != "Hello, Ada!" || data["greeting_source"] != "default" {
		t.Errorf("data = %v", data)
	}
}

func TestContextCredentialWinsAndTheEnvironmentIsTheFallback(t *testing.T) {
	env := map[string]string{"HELLO_GREETING": "Hi"}
	answers := run(t, env,
		invokeLine(1, "hello", `{"name":"Ada"}`, `{"HELLO_GREETING":"Howdy"}`),
		invokeLine(2, "hello", `{"name":"Ada"}`, ""),
	)
	if m := result(t, answers["1"])["data"].(map[string]any)["message"]; m != "Howdy, Ada!" {
		t.Errorf("context message = %v", m)
	}
	if m := result(t, answers["2"])["data"].(map[string]any)["message"]; m != "Hi, Ada!" {
		t.Errorf("env message = %v", m)
	}
}

func TestUnknownToolsAndArgumentsAreJSONRPCErrors(t *testing.T) {
	answers := run(t, nil,
		invokeLine(1, "nope", `{}`, ""),
		invokeLine(2, "hello", `{"name":"Ada","age":36}`, ""),
		invokeLine(3, "hello", `{}`, ""),
	)
	for id, want := range map[string]float64{"1": -32601, "2": -32602, "3": -32602} {
		if code := errorCode(t, answers[id]); code != want {
			t.Errorf("id %s: code = %v, want %v", id, code, want)
		}
	}
}
