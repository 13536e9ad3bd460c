package config

import (
	"strings"
	"testing"
)

func TestLLMSettings(t *testing.T) {
	c, err := load(t, nil, nil)
	if err != nil || c.LLMURL != "" || c.LLMModel != "" {
		t.Fatalf("defaults: %+v %v", c, err)
	}
	_, err = load(t, []string{"--llm-url", "http://localhost:11434/v1"}, nil)
	if err == nil || !strings.Contains(err.Error(), "--llm-model") || !strings.Contains(err.Error(), "llm_model") {
		t.Fatalf("a URL without a model: %v", err)
	}
	c, err = load(t, []string{"--llm-url", "http://localhost:11434/v1", "--llm-model", "llama3.1"}, map[string]string{"BETTY_LLM_API_KEY": "k"})
	if err != nil || c.LLMModel != "llama3.1" || c.LLMAPIKey != "k" || c.LLMURL != "http://localhost:11434/v1" {
		t.Fatalf("adapter settings: %+v %v", c, err)
	}
}

func TestSimCustomer(t *testing.T) {
	c, err := load(t, nil, nil)
	if err != nil || c.SimCustomer != "local" {
		t.Fatalf("default: %q %v", c.SimCustomer, err)
	}
	if _, err := load(t, []string{"--sim-customer", "model"}, nil); err == nil || !strings.Contains(err.Error(), "--llm-url") {
		t.Fatalf("the model customer without a model: %v", err)
	}
	if _, err := load(t, []string{"--sim-customer", "robot"}, nil); err == nil || !strings.Contains(err.Error(), "sim") {
		t.Fatalf("an unknown customer: %v", err)
	}
	c, err = load(t, []string{"--llm-url", "http://localhost:11434/v1", "--llm-model", "llama3.1", "--sim-customer", "model"}, nil)
	if err != nil || c.SimCustomer != "model" {
		t.Fatalf("the model customer: %q %v", c.SimCustomer, err)
	}
}
