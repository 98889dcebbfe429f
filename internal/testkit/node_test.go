package testkit

import "testing"

func TestNodeMajor(t *testing.T) {
	tests := []struct {
		version string
		major   int
		ok      bool
	}{
		{"v20.20.2", 20, true},
		{"v18.19.0", 18, true},
		{"v22.1.0", 22, true},
		{"v9.0.0", 9, true},
		{"", 0, false},
		{"node", 0, false},
	}
	for _, tt := range tests {
		major, ok := nodeMajor(tt.version)
		if major != tt.major || ok != tt.ok {
			t.Errorf("nodeMajor(%q) = %d, %v; want %d, %v", tt.version, major, ok, tt.major, tt.ok)
		}
	}
}
