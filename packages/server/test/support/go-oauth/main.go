// An OAuth client written with Go's golang.org/x/oauth2 (+ clientcredentials) and
// github.com/coreos/go-oidc, each with its defaults, for packages/server/test/interop-code-flow-browser.test.ts.
//
//	go-oauth machine <token-url> <client-id> <client-secret>
//	go-oauth code <issuer> <client-id> <client-secret> <redirect-uri>
//
// `machine` gets a client_credentials token. `code` discovers the issuer, prints the
// authorization URL (S256 PKCE, state) as a JSON line, reads the callback URL from stdin,
// exchanges the code, verifies the ID token with go-oidc's verifier and calls userinfo. Each
// prints one JSON line with what happened, the token requests' client authentication included.
// Names under .localhost are dialled on 127.0.0.1 (RFC 6761), as a local resolver would.
package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/ioutil"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"

	oidc "github.com/coreos/go-oidc"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// tokenRequest is how one request to a token endpoint authenticated its client, and the answer.
type tokenRequest struct {
	Basic      bool `json:"basic"`
	SecretBody bool `json:"secret_in_body"`
	Status     int  `json:"status"`
}

// recorder passes requests on, noting each token endpoint request.
type recorder struct {
	next     http.RoundTripper
	requests []tokenRequest
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	if !strings.HasSuffix(req.URL.Path, "/oauth/token") {
		return r.next.RoundTrip(req)
	}
	var body []byte
	if req.Body != nil {
		body, _ = ioutil.ReadAll(req.Body)
		req.Body = ioutil.NopCloser(bytes.NewReader(body))
	}
	form, _ := url.ParseQuery(string(body))
	res, err := r.next.RoundTrip(req)
	status := 0
	if res != nil {
		status = res.StatusCode
	}
	r.requests = append(r.requests, tokenRequest{
		Basic:      strings.HasPrefix(req.Header.Get("Authorization"), "Basic "),
		SecretBody: form.Get("client_secret") != "",
		Status:     status,
	})
	return res, err
}

func loopbackClient() (*http.Client, *recorder) {
	dialer := &net.Dialer{}
	transport := &http.Transport{
		DialContext: func(ctx context.Context, network, address string) (net.Conn, error) {
			host, port, err := net.SplitHostPort(address)
			if err == nil && (host == "localhost" || strings.HasSuffix(host, ".localhost")) {
				address = net.JoinHostPort("127.0.0.1", port)
			}
			return dialer.DialContext(ctx, network, address)
		},
	}
	rec := &recorder{next: transport}
	return &http.Client{Transport: rec}, rec
}

func random() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		fail(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

func emit(v interface{}) {
	line, err := json.Marshal(v)
	if err != nil {
		fail(err)
	}
	fmt.Println(string(line))
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, err)
	os.Exit(1)
}

func machine(ctx context.Context, rec *recorder, tokenURL, id, secret string) {
	config := clientcredentials.Config{ClientID: id, ClientSecret: secret, TokenURL: tokenURL}
	token, err := config.Token(ctx)
	if err != nil {
		fail(err)
	}
	emit(map[string]interface{}{
		"access_token": token.AccessToken,
		"token_type":   token.TokenType,
		"valid":        token.Valid(),
		"requests":     rec.requests,
	})
}

func code(ctx context.Context, rec *recorder, issuer, id, secret, redirect string) {
	provider, err := oidc.NewProvider(ctx, issuer)
	if err != nil {
		fail(err)
	}
	config := oauth2.Config{
		ClientID:     id,
		ClientSecret: secret,
		Endpoint:     provider.Endpoint(),
		RedirectURL:  redirect,
		Scopes:       []string{oidc.ScopeOpenID, "email"},
	}
	verifier, state := random(), random()
	sum := sha256.Sum256([]byte(verifier))
	emit(map[string]string{
		"url": config.AuthCodeURL(state,
			oauth2.SetAuthURLParam("code_challenge", base64.RawURLEncoding.EncodeToString(sum[:])),
			oauth2.SetAuthURLParam("code_challenge_method", "S256")),
		"state": state,
	})
	var line string
	if _, err := fmt.Fscanln(os.Stdin, &line); err != nil {
		fail(err)
	}
	callback, err := url.Parse(line)
	if err != nil {
		fail(err)
	}
	if callback.Query().Get("state") != state {
		fail(fmt.Errorf("state does not match"))
	}
	token, err := config.Exchange(ctx, callback.Query().Get("code"),
		oauth2.SetAuthURLParam("code_verifier", verifier))
	if err != nil {
		fail(err)
	}
	raw, _ := token.Extra("id_token").(string)
	idToken, err := provider.Verifier(&oidc.Config{ClientID: id}).Verify(ctx, raw)
	if err != nil {
		fail(err)
	}
	info, err := provider.UserInfo(ctx, config.TokenSource(ctx, token))
	if err != nil {
		fail(err)
	}
	emit(map[string]interface{}{
		"token_type": token.TokenType,
		"id_token":   raw,
		"sub":        idToken.Subject,
		"issuer":     idToken.Issuer,
		"audience":   idToken.Audience,
		"userinfo":   map[string]string{"sub": info.Subject, "email": info.Email},
		"requests":   rec.requests,
	})
}

func main() {
	client, rec := loopbackClient()
	ctx := oidc.ClientContext(context.Background(), client)
	args := os.Args[1:]
	switch {
	case len(args) == 4 && args[0] == "machine":
		machine(ctx, rec, args[1], args[2], args[3])
	case len(args) == 5 && args[0] == "code":
		code(ctx, rec, args[1], args[2], args[3], args[4])
	default:
		fail(fmt.Errorf("usage: go-oauth machine <token-url> <id> <secret> | code <issuer> <id> <secret> <redirect-uri>"))
	}
}
