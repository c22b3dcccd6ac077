package main

import (
	"encoding/json"
	"fmt"
)

type param struct {
	Name        string      `json:"name"`
	Type        string      `json:"type"`
	Description string      `json:"description"`
	Required    bool        `json:"required"`
	Default     interface{} `json:"default,omitempty"`
}

type tool struct {
	params []param
	// run returns the invoke's data, or a non-empty failure message for {"success": false}.
	run func(p *plugin, inv *invocation) (interface{}, string)
}

var tools = map[string]tool{
	"greet": {
		params: []param{{Name: "name", Type: "string", Description: "Who to greet.", Required: true}},
		run:    greet,
	},
	"ask": {
		params: []param{{Name: "question", Type: "string", Description: "Question for the user's model.", Required: true}},
		run:    ask,
	},
	"remember": {
		params: []param{
			{Name: "key", Type: "string", Description: "What to remember it by.", Required: true},
			{Name: "value", Type: "string", Description: "What to remember.", Required: true},
		},
		run: remember,
	},
}

// The bare manifest `describe` returns. No `name`: identity is the tool_id in executa.json.
var manifest = map[string]interface{}{
	"display_name":      "Hello (Go example)",
	"version":           pluginVersion,
	"description":       "Greets people, asks the user's model a question and remembers things.",
	"author":            "Anna examples",
	"icon":              "👋",
	"license":           "Apache-2.0",
	"host_capabilities": []string{"llm.sample", "aps.kv"},
	"tools": []map[string]interface{}{
		{"name": "greet", "description": "Greet someone. The prefix comes from GREETING_PREFIX.", "parameters": tools["greet"].params},
		{"name": "ask", "description": "Ask the user's model a question (sampling).", "parameters": tools["ask"].params},
		{"name": "remember", "description": "Store a value in plugin storage and read it back.", "parameters": tools["remember"].params},
	},
	"credentials": []map[string]interface{}{
		{"name": "GREETING_PREFIX", "display_name": "Greeting prefix", "description": "Word to greet with.", "required": false, "sensitive": false, "default": "Hello"},
	},
}

// checkArguments gives -32602 for unknown, missing or mistyped arguments.
func checkArguments(params []param, args map[string]interface{}) *rpcError {
	known := map[string]param{}
	for _, p := range params {
		known[p.Name] = p
		if _, ok := args[p.Name]; p.Required && !ok {
			return &rpcError{Code: -32602, Message: "Invalid params: missing " + p.Name}
		}
	}
	for name, value := range args {
		p, ok := known[name]
		if !ok {
			return &rpcError{Code: -32602, Message: "Invalid params: unexpected argument " + name}
		}
		if _, isString := value.(string); p.Type == "string" && !isString {
			return &rpcError{Code: -32602, Message: "Invalid params: " + name + " must be a string"}
		}
	}
	return nil
}

func greet(_ *plugin, inv *invocation) (interface{}, string) {
	name := inv.Arguments["name"].(string)
	prefix, source := inv.credential("GREETING_PREFIX")
	if prefix == "" {
		prefix, source = "Hello", "default"
	}
	return map[string]string{"greeting": fmt.Sprintf("%s, %s!", prefix, name), "prefix_source": source}, ""
}

func ask(p *plugin, inv *invocation) (interface{}, string) {
	question := inv.Arguments["question"].(string)
	raw, err := p.host.call(inv, "sampling/createMessage", map[string]interface{}{
		"messages":       []interface{}{map[string]interface{}{"role": "user", "content": map[string]string{"type": "text", "text": question}}},
		"maxTokens":      256,
		"includeContext": "none",
	}, false)
	if err != nil {
		return nil, "sampling failed: " + err.Error()
	}
	var result struct {
		Content struct {
			Text string `json:"text"`
		} `json:"content"`
		Model string `json:"model"`
	}
	if err := json.Unmarshal(raw, &result); err != nil {
		return nil, "sampling returned an unexpected shape: " + err.Error()
	}
	return map[string]string{"answer": result.Content.Text, "model": result.Model}, ""
}

func remember(p *plugin, inv *invocation) (interface{}, string) {
	key := "memory/" + inv.Arguments["key"].(string)
	value := inv.Arguments["value"].(string)
	rawSet, err := p.host.call(inv, "storage/set", map[string]interface{}{"key": key, "value": value, "scope": "tool"}, true)
	if err != nil {
		return nil, "storage/set failed: " + err.Error()
	}
	var set struct {
		Etag string `json:"etag"`
	}
	_ = json.Unmarshal(rawSet, &set)
	rawGet, err := p.host.call(inv, "storage/get", map[string]interface{}{"key": key, "scope": "tool"}, true)
	if err != nil {
		return nil, "storage/get failed: " + err.Error()
	}
	var got struct {
		Value  interface{} `json:"value"`
		Exists bool        `json:"exists"`
		Etag   string      `json:"etag"`
	}
	if err := json.Unmarshal(rawGet, &got); err != nil {
		return nil, "storage/get returned an unexpected shape: " + err.Error()
	}
	return map[string]interface{}{"key": key, "value": got.Value, "exists": got.Exists, "etag": set.Etag}, ""
}
