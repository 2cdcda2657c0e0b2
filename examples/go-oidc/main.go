// An invoices API in Go that accepts Tessera access tokens, verified with go-oidc's verifier: the RS256
// signature with a key from the org's key set (found through discovery, refetched when a token names a
// new key), the issuer, an audience that names this API (its resource indicator) and the expiry. Then
// each route checks its scope. See README.md for how to run it against a local Tessera.
package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"strings"

	oidc "github.com/coreos/go-oidc"
)

// claims are the access token's claims this API reads (RFC 9068 and Tessera's own).
type claims struct {
	Typ      string `json:"typ"` // "user" (a person, through an app) or "client" (a service's machine token)
	Sub      string `json:"sub"`
	Tenant   string `json:"tnt"`
	Scope    string `json:"scope"`
	ClientID string `json:"client_id"`
}

func env(name, fallback string) string {
	if value := os.Getenv(name); value != "" {
		return value
	}
	return fallback
}

func main() {
	issuer := env("TESSERA_ISSUER", "http://localhost:4000/o/acme/") // exact `iss`, trailing slash included
	port := env("PORT", "3003")
	resource := env("RESOURCE", "http://localhost:"+port+"/invoices") // as registered in Tessera

	// Discovery at <issuer>.well-known/openid-configuration; its `issuer` must be exactly this one.
	provider, err := oidc.NewProvider(context.Background(), issuer)
	if err != nil {
		log.Fatalf("discovery of %s failed: %v", issuer, err)
	}
	// The audience to require is this API's resource indicator: a token minted for another API, for no
	// API, or an ID token (whose audience is a client) is refused. RS256 only.
	verifier := provider.Verifier(&oidc.Config{ClientID: resource, SupportedSigningAlgs: []string{oidc.RS256}})

	http.HandleFunc("/health", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]bool{"ok": true})
	})
	http.HandleFunc("/invoices", func(w http.ResponseWriter, r *http.Request) {
		scope := map[string]string{http.MethodGet: "invoices:read", http.MethodPost: "invoices:write"}[r.Method]
		if scope == "" {
			w.Header().Set("Allow", "GET, POST")
			writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"error": "method_not_allowed"})
			return
		}
		who, ok := authenticate(w, r, verifier)
		if !ok || !requireScope(w, who, scope) {
			return
		}
		caller := map[string]string{"client": who.Sub}
		if who.Typ == "user" {
			caller = map[string]string{"user": who.Sub, "tenant": who.Tenant}
		}
		if r.Method == http.MethodGet {
			invoices := []map[string]interface{}{{"id": "inv_1", "amount": 4200, "currency": "EUR"}}
			writeJSON(w, http.StatusOK, map[string]interface{}{"caller": caller, "invoices": invoices})
			return
		}
		writeJSON(w, http.StatusCreated, map[string]interface{}{"caller": caller, "created": true})
	})

	// Listening before saying so: whoever waits for the line can call the API at once.
	listener, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("invoices API on http://localhost:%s\n", port)
	log.Fatal(http.Serve(listener, nil))
}

// authenticate verifies the bearer token; on failure it answers the 401 (the same for every reason) and
// logs the reason, never the token.
func authenticate(w http.ResponseWriter, r *http.Request, verifier *oidc.IDTokenVerifier) (claims, bool) {
	var who claims
	header := r.Header.Get("Authorization")
	if len(header) < 7 || !strings.EqualFold(header[:7], "bearer ") || strings.TrimSpace(header[7:]) == "" {
		return who, unauthorized(w, r, false, "no bearer token")
	}
	token := strings.TrimSpace(header[7:])
	// An access token says so in its header (RFC 9068): typ at+jwt. go-oidc does not look at it.
	if !isAccessToken(token) {
		return who, unauthorized(w, r, true, "not an access token (header typ)")
	}
	verified, err := verifier.Verify(r.Context(), token)
	if err != nil {
		return who, unauthorized(w, r, true, err.Error())
	}
	if err := verified.Claims(&who); err != nil || (who.Typ != "user" && who.Typ != "client") {
		return who, unauthorized(w, r, true, "not a user or machine token")
	}
	return who, true
}

func isAccessToken(token string) bool {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return false
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[0])
	if err != nil {
		return false
	}
	var header struct {
		Typ string `json:"typ"`
	}
	if json.Unmarshal(raw, &header) != nil {
		return false
	}
	return strings.EqualFold(header.Typ, "at+jwt") || strings.EqualFold(header.Typ, "application/at+jwt")
}

func unauthorized(w http.ResponseWriter, r *http.Request, sent bool, reason string) bool {
	log.Printf("401 %s %s: %s", r.Method, r.URL.Path, reason)
	challenge := `Bearer realm="invoices"`
	if sent {
		challenge += `, error="invalid_token"`
	}
	w.Header().Set("WWW-Authenticate", challenge)
	writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "unauthorized", "error_detail": "we don't know who you are"})
	return false
}

// requireScope answers 403 insufficient_scope unless the token's scope holds `scope` (RFC 6750 §3.1).
func requireScope(w http.ResponseWriter, who claims, scope string) bool {
	for _, held := range strings.Fields(who.Scope) {
		if held == scope {
			return true
		}
	}
	w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer realm="invoices", error="insufficient_scope", scope="%s"`, scope))
	writeJSON(w, http.StatusForbidden, map[string]string{
		"error":        "insufficient_scope",
		"error_detail": "this token lacks the " + scope + " scope",
	})
	return false
}

func writeJSON(w http.ResponseWriter, status int, body interface{}) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}
