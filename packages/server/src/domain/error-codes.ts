/**
 * Every situation the service refuses, each by a stable code listed once here: the answer's
 * `Tessera-Error-Code` header names it (http/errors.ts), beside the body the spec fixes, which stays as
 * it is. `error` is the protocol error the situation answers with (domain/errors.ts); a route may
 * answer the same situation with its family's word (a domain's `invalid_body` is the management API's
 * `invalid_request`). `means` is the line docs/errors.md shows.
 *
 * A code is `area.subject.problem` (two to four lowercase parts, words joined by `_`). Once
 * published a code never changes and is never reused for another situation: add a code, never rename one.
 */
export const ERROR_CODES = {
  'auth.bearer.unknown': {
    error: 'unauthorized',
    means: 'the bearer token is missing, expired, forged or not for this API',
  },
  'auth.dpop.refused': {
    error: 'unauthorized',
    means:
      'a DPoP-bound token came without its proof, as Bearer, or with a proof refused (WWW-Authenticate: DPoP names why)',
  },
  'authorize.access_denied': {
    error: 'access_denied',
    means: 'the person declined the application on the consent page',
  },
  'authorize.acr.unmet': {
    error: 'unmet_authentication_requirements',
    means: 'the sign-in did not reach an essential acr value',
  },
  'authorize.acr.unreachable': {
    error: 'unmet_authentication_requirements',
    means: 'none of the essential acr values can be reached here',
  },
  'authorize.claims.essential_not_boolean': {
    error: 'invalid_request',
    means: "a claim's essential is not true or false",
  },
  'authorize.claims.malformed': { error: 'invalid_request', means: 'the claims parameter is not JSON' },
  'authorize.claims.not_object': {
    error: 'invalid_request',
    means: 'the claims parameter is JSON but not an object',
  },
  'authorize.claims.request_not_object': {
    error: 'invalid_request',
    means: "a claim's request in claims is neither null nor an object",
  },
  'authorize.claims.target_not_object': {
    error: 'invalid_request',
    means: 'claims.userinfo or claims.id_token is not an object',
  },
  'authorize.claims.too_long': { error: 'invalid_request', means: 'the claims parameter is too long' },
  'authorize.claims.too_many': { error: 'invalid_request', means: 'claims names more claims than allowed' },
  'authorize.claims.values_not_array': {
    error: 'invalid_request',
    means: "a claim's values is not an array",
  },
  'authorize.client_id.missing': {
    error: 'invalid_request',
    means: 'the authorization request has no client_id',
  },
  'authorize.client.code_flow_refused': {
    error: 'unauthorized_client',
    means: 'the client may not use the authorization code flow',
  },
  'authorize.client.document_closed': {
    error: 'invalid_client',
    means: 'a client_id URL names a metadata document where the org takes none',
  },
  'authorize.client.document_refused': {
    error: 'invalid_client',
    means: 'a client metadata document could not be fetched or was refused',
  },
  'authorize.client.unknown': {
    error: 'invalid_client',
    means: 'the authorization request names an unknown client',
  },
  'authorize.consent_required': {
    error: 'consent_required',
    means: 'prompt=none and the person has not allowed the application',
  },
  'authorize.id_token_hint.foreign': {
    error: 'invalid_request',
    means: 'id_token_hint at authorization is not an ID token of this issuer',
  },
  'authorize.identifying_parameter.repeated': {
    error: 'invalid_request',
    means: 'client_id, redirect_uri or request is given more than once (no redirect)',
  },
  'authorize.login_hint.too_long': { error: 'invalid_request', means: 'login_hint is too long' },
  'authorize.login_required.hint_mismatch': {
    error: 'login_required',
    means: 'prompt=none and id_token_hint names someone other than the signed-in person',
  },
  'authorize.login_required.signed_out': {
    error: 'login_required',
    means: 'prompt=none and nobody is signed in',
  },
  'authorize.login_required.sub_mismatch': {
    error: 'login_required',
    means: 'the claims parameter asks for a sub other than the signed-in person',
  },
  'authorize.login_required.too_old': {
    error: 'login_required',
    means: 'prompt=none and the sign-in is older than max_age allows',
  },
  'authorize.max_age.invalid': { error: 'invalid_request', means: 'max_age is not a number of seconds' },
  'authorize.dpop_jkt.invalid': {
    error: 'invalid_request',
    means: 'dpop_jkt is not the base64url SHA-256 thumbprint of a key (RFC 9449 §10)',
  },
  'authorize.nonce.too_long': { error: 'invalid_request', means: 'nonce is too long' },
  'authorize.parameter.repeated': {
    error: 'invalid_request',
    means: 'an authorization parameter is given more than once',
  },
  'authorize.pkce.challenge_malformed': {
    error: 'invalid_request',
    means: 'code_challenge is not a well-formed S256 challenge',
  },
  'authorize.pkce.method_unsupported': {
    error: 'invalid_request',
    means: 'code_challenge_method is not S256',
  },
  'authorize.pkce.method_without_challenge': {
    error: 'invalid_request',
    means: 'code_challenge_method was given without code_challenge',
  },
  'authorize.pkce.required': { error: 'invalid_request', means: 'a public client sent no code_challenge' },
  'authorize.prompt.none_combined': {
    error: 'invalid_request',
    means: 'prompt=none is combined with other values',
  },
  'authorize.prompt.unsupported': {
    error: 'invalid_request',
    means: 'prompt holds a value that is not supported',
  },
  'authorize.pushed_request.required': {
    error: 'invalid_request',
    means:
      'the client or its org must push authorization requests (RFC 9126) and sent one without request_uri',
  },
  'authorize.redirect_uri.missing': {
    error: 'invalid_request',
    means: 'redirect_uri is missing and the client has more than one registered',
  },
  'authorize.redirect_uri.unregistered': {
    error: 'invalid_request',
    means: 'redirect_uri is not registered for the client',
  },
  'authorize.request_object.bad_characters': {
    error: 'invalid_request_object',
    means: 'a parameter holds a NUL character or an unpaired surrogate',
  },
  'authorize.request_object.client_mismatch': {
    error: 'invalid_request_object',
    means: 'a request object names another client_id than the query',
  },
  'authorize.request_object.encrypted': {
    error: 'invalid_request_object',
    means: 'an encrypted request object was sent',
  },
  'authorize.request_object.expired': {
    error: 'invalid_request_object',
    means: 'the request object has expired',
  },
  'authorize.request_object.nested': {
    error: 'invalid_request_object',
    means: 'a request object holds request or request_uri',
  },
  'authorize.request_object.no_keys': {
    error: 'invalid_request_object',
    means: 'the client has no registered keys to verify a request object with',
  },
  'authorize.request_object.not_jwt': { error: 'invalid_request_object', means: 'request is not a JWT' },
  'authorize.request_object.not_string': {
    error: 'invalid_request_object',
    means: 'a parameter in the request object is not a string',
  },
  'authorize.request_object.response_type_mismatch': {
    error: 'invalid_request_object',
    means: 'a request object names another response_type than the query',
  },
  'authorize.request_object.too_deep': {
    error: 'invalid_request_object',
    means: 'a value in the request object is nested too deeply',
  },
  'authorize.request_object.unsigned': {
    error: 'request_not_supported',
    means: 'an unsigned request object from a client not registered for them',
  },
  'authorize.request_object.unverified': {
    error: 'invalid_request_object',
    means: "the request object's signature, iss or aud is wrong",
  },
  'authorize.request_object.with_request_uri': {
    error: 'invalid_request',
    means: 'request and request_uri are both given',
  },
  'authorize.request_object.wrong_alg': {
    error: 'invalid_request_object',
    means: 'a request object signed with an algorithm the client does not use',
  },
  'authorize.request_uri.invalid': {
    error: 'invalid_request_uri',
    means: 'the request_uri of a pushed request is unknown, expired, already used or another org’s',
  },
  'authorize.request_uri.other_client': {
    error: 'invalid_request_uri',
    means: 'the request_uri of a pushed request was pushed by another client',
  },
  'authorize.request_uri.unsupported': {
    error: 'request_uri_not_supported',
    means: 'a request_uri other than one /oauth/par handed out was given',
  },
  'authorize.response_mode.unsupported': {
    error: 'invalid_request',
    means: 'response_mode is not one that is supported',
  },
  'authorize.response_type.missing': {
    error: 'invalid_request',
    means: 'the authorization request has no response_type',
  },
  'authorize.response_type.unsupported': {
    error: 'unsupported_response_type',
    means: 'response_type is not code',
  },
  'authorize.state.too_long': { error: 'invalid_request', means: 'state is too long' },
  'body.field.invalid': {
    error: 'invalid_body',
    means: 'a field of an API body is unknown, missing or invalid (invalid_request on the management API)',
  },
  'body.not_object': {
    error: 'invalid_body',
    means: 'an API body is not a JSON object (invalid_request on the management API)',
  },
  'client_auth.assertion_type.unsupported': {
    error: 'invalid_request',
    means: 'client_assertion_type is not jwt-bearer',
  },
  'client_auth.assertion.missing': {
    error: 'invalid_request',
    means: 'client_assertion_type was given without client_assertion',
  },
  'client_auth.assertion.refused': {
    error: 'invalid_client',
    means: 'a client assertion whose signature held was refused (expired, replayed, wrong audience)',
  },
  'client_auth.basic.client_id_mismatch': {
    error: 'invalid_request',
    means: 'client_id differs from the client of the Basic credentials',
  },
  'client_auth.basic.malformed': { error: 'invalid_client', means: 'the Basic credentials are malformed' },
  'client_auth.client_id.mismatch': {
    error: 'invalid_request',
    means: 'client_id differs from the client the assertion is for',
  },
  'client_auth.client_id.missing': { error: 'invalid_request', means: 'a request names no client' },
  'client_auth.failed': {
    error: 'invalid_client',
    means: 'unknown client, wrong secret or wrong method (one code: never says which)',
  },
  'client_auth.methods.multiple': {
    error: 'invalid_request',
    means: 'more than one client authentication method was used',
  },
  'client_auth.public_refused': {
    error: 'invalid_client',
    means: 'a public client called introspection, which answers confidential clients only',
  },
  'client.allowed_origin.invalid': {
    error: 'invalid_body',
    means: 'an allowed origin is not an https origin (or loopback http) without a path',
  },
  'client.allowed_origins.too_many': {
    error: 'invalid_body',
    means: 'a client names more allowed origins than the limit',
  },
  'client.backchannel_logout_uri.invalid': {
    error: 'invalid_body',
    means:
      'backchannel_logout_uri is not https (or http on loopback), has a fragment or credentials, or is too long',
  },
  'client.backchannel_logout_uri.service_host': {
    error: 'invalid_body',
    means: "backchannel_logout_uri is on one of this service's hosts",
  },
  'client.frontchannel_logout_uri.invalid': {
    error: 'invalid_body',
    means:
      'frontchannel_logout_uri is not https (or http on loopback), has a fragment or credentials, or is too long',
  },
  'client.frontchannel_logout_uri.service_host': {
    error: 'invalid_body',
    means: "frontchannel_logout_uri is on one of this service's hosts",
  },
  'client.grant_types.invalid': {
    error: 'invalid_body',
    means: "a new client's grant types do not fit its kind or redirect URIs",
  },
  'client.jwks_uri.credentials': {
    error: 'invalid_body',
    means: 'jwks_uri has a fragment, a user name or a password',
  },
  'client.jwks_uri.invalid': { error: 'invalid_body', means: 'jwks_uri is not an absolute URL, or too long' },
  'client.jwks_uri.not_https': { error: 'invalid_body', means: 'jwks_uri is not an https URL' },
  'client.jwks_uri.public_client': {
    error: 'invalid_body',
    means: 'a public client was given a key set URL (jwks_uri)',
  },
  'client.jwks.both_sources': { error: 'invalid_body', means: 'a client would have both jwks and jwks_uri' },
  'client.jwks.key_count': {
    error: 'invalid_body',
    means: 'a key set holds no key or more keys than allowed',
  },
  'client.jwks.key_type': {
    error: 'invalid_body',
    means: 'a key in the set is not an RSA, EC or OKP public key',
  },
  'client.jwks.private_key': {
    error: 'invalid_body',
    means: 'a key in the set holds private or secret members',
  },
  'client.jwks.public_client': { error: 'invalid_body', means: 'a public client was given a key set (jwks)' },
  'client.logout_session_required.without_uri': {
    error: 'invalid_body',
    means: 'a logout session_required flag was given with no logout URI to go with it',
  },
  'client.not_found': { error: 'not_found', means: 'no such client in the organization' },
  'client.permissions.public_client': {
    error: 'invalid_body',
    means: 'permissions were given to a public client, which gets no machine tokens',
  },
  'client.promote_from.not_public': {
    error: 'invalid_body',
    means: 'promote-from names a client that is not public',
  },
  'client.promote_from.public_client': {
    error: 'invalid_body',
    means: 'a public client was given clients to promote tokens from',
  },
  'client.promote_from.unknown': {
    error: 'invalid_body',
    means: 'promote-from names no client of the organization',
  },
  'client.redirect_uri.http_not_loopback': {
    error: 'invalid_body',
    means: 'an http redirect URI names a host other than loopback',
  },
  'client.redirect_uri.invalid': {
    error: 'invalid_body',
    means: 'a redirect URI breaks a rule (fragment, credentials, wildcard)',
  },
  'client.redirect_uri.not_absolute': {
    error: 'invalid_body',
    means: 'a redirect URI is not an absolute URL',
  },
  'client.redirect_uri.scheme': { error: 'invalid_body', means: "a redirect URI's scheme is refused" },
  'client.request_object_alg.public_client': {
    error: 'invalid_body',
    means: 'a public client was given a request object signing algorithm other than none',
  },
  'client.request_object_alg.unsupported': {
    error: 'invalid_body',
    means: 'request_object_signing_alg is not one of the supported algorithms',
  },
  'client.secret.public_client': {
    error: 'conflict',
    means: 'a secret rotation was asked for a public client, which has none',
  },
  'client.update.grant_types_invalid': {
    error: 'invalid_body',
    means: "a client's changed grant types or redirect URIs no longer fit together",
  },
  'connection.certificate.invalid': {
    error: 'invalid_request',
    means: 'a SAML certificate is not an X.509 certificate',
  },
  'connection.default_roles.unknown': {
    error: 'invalid_request',
    means: 'default_roles names a role the organization does not have',
  },
  'connection.domain.claimed': {
    error: 'conflict',
    means: 'a domain is claimed by another connection of the organization',
  },
  'connection.domain.invalid': {
    error: 'invalid_request',
    means: "an entry of a connection's domains is not a domain name",
  },
  'connection.endpoint_hosts.invalid': {
    error: 'invalid_request',
    means: 'an entry of allowed_endpoint_hosts is not a host name',
  },
  'connection.endpoint_hosts.too_many': {
    error: 'invalid_request',
    means: 'allowed_endpoint_hosts names more hosts than allowed',
  },
  'connection.hosted_domain.invalid': {
    error: 'invalid_request',
    means: 'hosted_domain is not a domain name',
  },
  'connection.name.empty': { error: 'invalid_request', means: "a connection's name is empty" },
  'connection.not_found': { error: 'not_found', means: 'no such connection in the organization' },
  'connection.saml_metadata.no_certificate': {
    error: 'invalid_request',
    means: "the identity provider's metadata names no signing certificate",
  },
  'connection.saml_metadata.no_redirect': {
    error: 'invalid_request',
    means: 'the identity provider offers no HTTP-Redirect sign-on service',
  },
  'connection.saml_metadata.not_idp': {
    error: 'invalid_request',
    means: 'metadata_xml is not SAML identity provider metadata',
  },
  'connection.saml.incomplete': {
    error: 'invalid_request',
    means: 'a SAML connection has neither metadata nor the entity id, SSO URL and certificate',
  },
  'connection.test.busy': {
    error: 'unavailable',
    means: "too many calls to providers are running for the org: a connection's test is not made now",
  },
  'connection.test.no_upstreams': {
    error: 'unavailable',
    means: 'a connection was tested in a process that does not reach providers (only tessera serve does)',
  },
  'connection.test.unusable': {
    error: 'invalid_request',
    means:
      "a tested connection's provider could not be used: unreachable, refused, or its discovery is wrong",
  },
  'connection.type_mismatch': {
    error: 'invalid_request',
    means: 'a field of the other connection type was given',
  },
  'connection.url.credentials': {
    error: 'invalid_request',
    means: "a connection's URL has a fragment or credentials",
  },
  'connection.url.not_absolute': {
    error: 'invalid_request',
    means: "a connection's URL is not an absolute URL",
  },
  'connection.url.not_https': { error: 'invalid_request', means: "a connection's URL is not an https URL" },
  'connection.url.private_address': {
    error: 'invalid_request',
    means: "a connection's URL points at a private or loopback address",
  },
  'consent.decision.missing': {
    error: 'invalid_request',
    means: 'the consent form was posted with neither Allow nor Deny',
  },
  'console.org.create_failed': {
    error: 'server_error',
    means: 'the console organization could not be created',
  },
  'console.org.missing': {
    error: 'server_error',
    means: 'the console organization is missing from the database',
  },
  'device.decision.missing': {
    error: 'invalid_request',
    means: 'the device confirmation form was posted with neither Allow nor Deny',
  },
  'device.user_code.invalid': {
    error: 'invalid_request',
    means: 'the code typed on the device page names no pending device request of this organization',
  },
  'device.user_code.throttled': {
    error: 'rate_limited',
    means: 'too many codes were typed on the device page from this address, or this code was tried too often',
  },
  'domain.console': { error: 'invalid_body', means: 'the console org takes no custom domain' },
  'domain.dns.unreachable': {
    error: 'bad_gateway',
    means: 'the DNS servers did not answer for the domain’s TXT record (timeout, refusal, SERVFAIL)',
  },
  'domain.exists': { error: 'conflict', means: 'the domain is already one of the organization’s' },
  'domain.limit': { error: 'conflict', means: 'the organization has as many domains as it may' },
  'domain.name.invalid': {
    error: 'invalid_body',
    means: 'the domain is not a host name (an IP address, a port, a path, a bad label, too long)',
  },
  'domain.name.reserved': {
    error: 'invalid_body',
    means: 'the domain is localhost or one of Tessera’s own hosts, or under one',
  },
  'domain.not_found': { error: 'not_found', means: 'no such domain in the organization' },
  'domain.primary': {
    error: 'conflict',
    means: 'the organization’s issuer lives on this domain: move it off before deleting the domain',
  },
  'domain.taken': { error: 'conflict', means: 'another organization has verified this domain' },
  'domain.txt.mismatch': {
    error: 'conflict',
    means: 'the domain’s challenge name has TXT records, none of them the domain’s token',
  },
  'domain.txt.missing': { error: 'conflict', means: 'the domain’s challenge name has no TXT record' },
  'domain.unverified': {
    error: 'conflict',
    means: 'the issuer cannot move to a domain that is not verified',
  },
  'federation.claims.control_characters': {
    error: 'invalid_request',
    means: "the provider's answer contains control characters",
  },
  'federation.connection.not_oidc': {
    error: 'invalid_request',
    means: 'an OpenID Connect endpoint was called for a connection that does not use it',
  },
  'federation.connection.not_saml': {
    error: 'invalid_request',
    means: 'a SAML endpoint was called for a connection that does not use SAML',
  },
  'federation.email.confusable': {
    error: 'forbidden',
    means: "the provider's address reads as another address here",
  },
  'federation.email.missing': { error: 'forbidden', means: 'the provider shared no email address' },
  'federation.email.unusable': {
    error: 'forbidden',
    means: 'the provider gave an address this service cannot use',
  },
  'federation.hosted_domain.mismatch': {
    error: 'forbidden',
    means: "the provider signed the person in with an account outside the connection's hosted domain",
  },
  'federation.link.closed': {
    error: 'invalid_request',
    means: 'the mailed proof for linking an account is unknown, expired or already used',
  },
  'federation.link.lost': {
    error: 'invalid_request',
    means: 'the account-link page was opened without its browser binding',
  },
  'federation.link.refused': {
    error: 'forbidden',
    means: "the account may not be linked to this connection's identity",
  },
  'federation.saml.no_id': { error: 'invalid_request', means: 'the SAML assertion has no id' },
  'federation.saml.replayed': { error: 'invalid_request', means: 'the SAML assertion was already used' },
  'federation.saml.request_failed': {
    error: 'bad_gateway',
    means: 'the SAML sign-in request could not be made',
  },
  'federation.saml.response_empty': { error: 'invalid_request', means: 'the SAML answer is empty' },
  'federation.saml.response_invalid': {
    error: 'invalid_request',
    means: 'the SAML answer does not verify or is malformed',
  },
  'federation.saml.unsolicited': {
    error: 'invalid_request',
    means: 'the SAML answer does not answer a sign-in started here',
  },
  'federation.saml.wrong_issuer': {
    error: 'invalid_request',
    means: 'the SAML answer comes from another identity provider',
  },
  'federation.saml.wrong_recipient': {
    error: 'invalid_request',
    means: 'the SAML answer was sent to another address',
  },
  'federation.sign_in.completed_elsewhere': {
    error: 'invalid_request',
    means: 'the federated sign-in was completed in another window',
  },
  'federation.sign_in.expired': {
    error: 'invalid_request',
    means: 'the federated sign-in is unknown, expired or already finished',
  },
  'federation.sign_in.other_browser': {
    error: 'invalid_request',
    means: 'the federated sign-in was started in another browser',
  },
  'federation.upstream.busy': {
    error: 'unavailable',
    means: 'too many sign-ins are on their way to the provider',
  },
  'federation.upstream.declined': {
    error: 'invalid_request',
    means: 'the provider answered with an error instead of a sign-in',
  },
  'federation.upstream.host_refused': {
    error: 'bad_gateway',
    means: 'the provider sends sign-ins to a host the organization has not allowed',
  },
  'federation.upstream.no_subject': {
    error: 'bad_gateway',
    means: "the provider's ID token names no subject",
  },
  'federation.upstream.unreachable': {
    error: 'bad_gateway',
    means: 'the provider cannot be reached or did not answer as an OpenID provider',
  },
  'federation.upstream.unverified': {
    error: 'bad_gateway',
    means: "the provider's answer could not be verified",
  },
  'federation.user.disabled': {
    error: 'forbidden',
    means: 'the account a federated sign-in reaches is disabled',
  },
  'federation.user.foreign_domain': {
    error: 'forbidden',
    means: 'the connection creates accounts for its own domains only',
  },
  'federation.user.made_by_another': {
    error: 'forbidden',
    means: 'the account of this address was made by another connection',
  },
  'federation.user.unknown': {
    error: 'forbidden',
    means: 'no account for the address, and the connection creates none',
  },
  'id_token_hint.expired_long_ago': {
    error: 'invalid_request',
    means: 'id_token_hint expired longer ago than is accepted',
  },
  'impersonation.client.code_flow_refused': {
    error: 'invalid_request',
    means: 'the client to sign in to does not use the authorization code flow',
  },
  'impersonation.client.not_found': {
    error: 'invalid_request',
    means: 'the client to sign in to is not a client of the organization',
  },
  'impersonation.link.closed': {
    error: 'invalid_request',
    means: 'the impersonation link has expired or was already used',
  },
  'impersonation.pkce.required': {
    error: 'invalid_request',
    means: "a public client's impersonation link has no code_challenge",
  },
  'impersonation.redirect_uri.unregistered': {
    error: 'invalid_request',
    means: "the impersonation link's redirect_uri is not registered for the client",
  },
  'impersonation.user.disabled': { error: 'conflict', means: 'the user to act as is disabled' },
  'impersonation.user.not_found': {
    error: 'not_found',
    means: 'the user to act as is not a user of the organization',
  },
  'input.email.invalid': { error: 'invalid_body', means: 'an email address is not valid' },
  'input.name.control_characters': { error: 'invalid_body', means: 'a name contains control characters' },
  'input.name.length': { error: 'invalid_body', means: 'a name is empty or too long' },
  'input.password.too_long': { error: 'invalid_body', means: 'a password is longer than 256 characters' },
  'input.password.too_short': { error: 'invalid_body', means: 'a password is shorter than 8 characters' },
  'input.slug.invalid': {
    error: 'invalid_body',
    means: 'a slug is not 1-40 lowercase letters, digits or inner hyphens',
  },
  'input.slug.reserved': { error: 'invalid_body', means: 'a slug is reserved' },
  'invitation.accept.first_name_missing': {
    error: 'invalid_body',
    means: 'an invitation was accepted without a first name',
  },
  'invitation.accept.user_exists': {
    error: 'conflict',
    means: 'an invitation for a new user was accepted but the user exists',
  },
  'invitation.already_member': {
    error: 'conflict',
    means: 'the invited address is a member of the organization already',
  },
  'invitation.already_pending': {
    error: 'conflict',
    means: 'the invited address has a pending invitation already',
  },
  'invitation.console_org': {
    error: 'invalid_body',
    means: 'an invitation was sent on the console organization',
  },
  'invitation.not_found': { error: 'not_found', means: 'no such invitation' },
  'invitation.role.missing': { error: 'invalid_body', means: 'an invitation names no role' },
  'invitation.roles.duplicate': { error: 'invalid_body', means: 'an invitation names a role twice' },
  'invitation.roles.not_user': {
    error: 'invalid_body',
    means: 'roles were given to an invitation that is not to be a user',
  },
  'invitation.roles.too_many': {
    error: 'invalid_body',
    means: 'an invitation names more roles than allowed',
  },
  'invitation.roles.unknown': {
    error: 'invalid_body',
    means: 'an invitation names a role the organization does not have',
  },
  'keys.create.failed': { error: 'server_error', means: 'a new organization did not get its two fresh keys' },
  'keys.retire.access': {
    error: 'server_error',
    means: 'the RS256 keys, which sign access tokens, were to be retired with an algorithm change',
  },
  'keys.rotation.no_key': {
    error: 'not_found',
    means: 'a rotation was asked for an organization without a signing key',
  },
  'keys.rotation.raced': {
    error: 'conflict',
    means: 'the signing keys changed while a rotation was under way',
  },
  'keys.signing.missing': {
    error: 'server_error',
    means: 'the organization has no signing key to sign with',
  },
  'log_stream.field.other_type': {
    error: 'invalid_request',
    means: 'a log stream change names a setting of another stream type',
  },
  'log_stream.not_found': { error: 'not_found', means: 'no such log stream in the organization' },
  'log_stream.too_many': { error: 'conflict', means: 'the organization has as many log streams as allowed' },
  'log_stream.url.loopback': {
    error: 'invalid_request',
    means: "a log stream's URL points at this machine",
  },
  'logout.client_id.not_audience': {
    error: 'invalid_request',
    means: 'client_id at sign-out is not the audience of id_token_hint',
  },
  'logout.client.unknown': { error: 'invalid_request', means: 'client_id at sign-out names no client' },
  'logout.id_token_hint.foreign': {
    error: 'invalid_request',
    means: 'id_token_hint at sign-out is not an ID token of this issuer',
  },
  'logout.redirect.no_client': {
    error: 'invalid_request',
    means: 'post_logout_redirect_uri was given without client_id or id_token_hint',
  },
  'logout.redirect.unregistered': {
    error: 'invalid_request',
    means: 'post_logout_redirect_uri is not registered for the client',
  },
  'management.not_a_person': {
    error: 'forbidden',
    means: 'the caller is a service account where a person is required',
  },
  'management.scope.insufficient': {
    error: 'insufficient_scope',
    means: 'the token lacks the scope the operation needs',
  },
  'management.wrong_host': {
    error: 'not_found',
    means: "the management API was called on an organization's host",
  },
  'member.last_owner.demote': {
    error: 'conflict',
    means: 'the last owner of an organization would be demoted',
  },
  'member.last_owner.remove': {
    error: 'conflict',
    means: 'the last owner of an organization would be removed',
  },
  'member.not_found': { error: 'not_found', means: 'no such member of the organization' },
  'member.password_required': {
    error: 'invalid_body',
    means: 'a new console member was added without a password',
  },
  'oauth.form.not_urlencoded': {
    error: 'invalid_request',
    means: 'the body is not application/x-www-form-urlencoded',
  },
  'oauth.parameter.repeated': { error: 'invalid_request', means: 'a parameter is given more than once' },
  'org.create.rate_limited': {
    error: 'rate_limited',
    means: 'a user created more organizations in the hour than allowed',
  },
  'org.host.unknown': { error: 'not_found', means: 'no organization is served at this host' },
  'org.issuer.moved': {
    error: 'not_found',
    means:
      'the organization’s issuer moved to its own domain: this host serves only discovery, the key set and introspection for the tokens it issued, until they expire',
  },
  'org.not_found': { error: 'not_found', means: 'no such organization, or the caller may not see it' },
  'org.owner_required': {
    error: 'forbidden',
    means: 'the caller is a member of the organization but not an owner',
  },
  'org.owner.not_found': {
    error: 'not_found',
    means: 'the owner named for a new organization is no console user',
  },
  'org.ref.not_found': {
    error: 'not_found',
    means: 'an administration command names no organization by that slug or id',
  },
  'org.settings.console_signing_alg': {
    error: 'invalid_request',
    means: 'id_token_signing_alg other than RS256 was set on the console issuer',
  },
  'org.settings.console_pushed_requests': {
    error: 'invalid_request',
    means: 'require_pushed_authorization_requests was set on the console issuer',
  },
  'org.settings.console_registration': {
    error: 'invalid_request',
    means: 'registration was set on the console issuer, which always offers it',
  },
  'org.sign_up_domains.invalid': {
    error: 'invalid_body',
    means: 'an entry of sign_up_domains is not a domain name',
  },
  'org.sign_up_domains.missing': {
    error: 'invalid_body',
    means: 'the sign-up policy "domains" was set without any domain',
  },
  'org.sign_up_domains.too_many': {
    error: 'invalid_body',
    means: 'sign_up_domains holds more domains than allowed',
  },
  'org.sign_up.invalid': { error: 'invalid_body', means: 'sign_up is not one of the sign-up policies' },
  'org.slug.taken': { error: 'conflict', means: 'an organization with this slug exists' },
  'page.csrf.rejected': {
    error: 'forbidden',
    means: "a hosted page's form carried no valid anti-forgery token (reload the page)",
  },
  'page.form.not_form': { error: 'invalid_body', means: "a hosted page's form was not sent as a form" },
  'page.not_found': { error: 'not_found', means: 'no hosted page at this path' },
  'par.dpop_jkt.mismatch': {
    error: 'invalid_dpop_proof',
    means: "a pushed request's dpop_jkt is not the thumbprint of its DPoP proof's key (RFC 9449 §10.1)",
  },
  'par.request_uri.given': {
    error: 'invalid_request',
    means: 'a pushed authorization request carries request_uri itself',
  },
  'passkey.name.invalid': { error: 'invalid_request', means: "a passkey's name is empty or too long" },
  'passkey.register.duplicate': { error: 'conflict', means: 'the new passkey is already registered' },
  'passkey.register.expired': {
    error: 'invalid_request',
    means: 'the passkey registration challenge has expired',
  },
  'passkey.register.invalid': { error: 'invalid_request', means: "the new passkey's answer does not verify" },
  'passkey.register.too_many': { error: 'conflict', means: 'the user has as many passkeys as allowed' },
  'passkey.sign_in.expired': { error: 'invalid_request', means: 'the passkey sign-in challenge has expired' },
  'passkey.sign_in.invalid': {
    error: 'invalid_request',
    means: "the passkey's answer at sign-in does not verify",
  },
  'passkey.sign_in.unknown': {
    error: 'invalid_request',
    means: 'the passkey presented at sign-in is not registered here',
  },
  'permissions.resource.unknown': {
    error: 'invalid_body',
    means: 'a permission names a resource the organization does not have',
  },
  'permissions.scope.unknown': {
    error: 'invalid_body',
    means: 'a permission names a scope its resource does not have',
  },
  'permissions.too_many': { error: 'invalid_body', means: 'more permissions than allowed were given' },
  'profile.key.invalid': {
    error: 'invalid_request',
    means: "the profile link's key is unknown, expired or already used",
  },
  'profile.page.expired': { error: 'unauthorized', means: "the profile page's sign-in has expired" },
  'profile.second_factor.form_invalid': {
    error: 'invalid_request',
    means: 'the two-step verification form of the profile page was not understood',
  },
  'query.parameter.invalid': {
    error: 'invalid_query',
    means: 'a query parameter is unknown or its value is out of range',
  },
  'query.parameter.repeated': { error: 'invalid_query', means: 'a query parameter is given more than once' },
  'registration.body.not_json': {
    error: 'invalid_client_metadata',
    means: 'the registration body is not JSON',
  },
  'registration.body.not_object': {
    error: 'invalid_client_metadata',
    means: 'the registration body is not a JSON object',
  },
  'registration.closed': { error: 'not_found', means: 'the issuer does not offer registration' },
  'registration.metadata.invalid': {
    error: 'invalid_client_metadata',
    means: 'a registration field other than redirect_uris is refused',
  },
  'registration.rate_limited': {
    error: 'rate_limited',
    means: "more than 10 registrations in the hour from the caller's address",
  },
  'registration.redirect_uris.invalid': {
    error: 'invalid_redirect_uri',
    means: 'redirect_uris is missing or empty, or an entry is neither https nor loopback http',
  },
  'request.body.too_large': {
    error: 'invalid_request',
    means: 'a request body is larger than accepted (413)',
  },
  'request.body.unsupported_type': {
    error: 'invalid_request',
    means: "a request body's content type is not accepted (415)",
  },
  'request.host.duplicate': { error: 'invalid_request', means: 'a request has more than one Host header' },
  'request.malformed': {
    error: 'invalid_request',
    means: 'a request could not be parsed (a malformed body or URL)',
  },
  'request.text.unstorable': {
    error: 'invalid_request',
    means: 'a request holds text no column can hold (NUL, unpaired surrogates)',
  },
  'resource_indicator.fragment': { error: 'invalid_target', means: 'resource has a fragment' },
  'resource_indicator.not_absolute': { error: 'invalid_target', means: 'resource is not an absolute URI' },
  'resource_indicator.unknown': {
    error: 'invalid_target',
    means: 'resource names no API resource of the organization',
  },
  'resource.identifier.immutable': { error: 'invalid_request', means: "a resource's identifier was changed" },
  'resource.identifier.invalid': {
    error: 'invalid_body',
    means: 'a resource identifier is not an acceptable absolute URI',
  },
  'resource.identifier.taken': { error: 'conflict', means: 'a resource with this identifier exists' },
  'resource.not_found': { error: 'not_found', means: 'no such API resource in the organization' },
  'resource.scope.description_length': {
    error: 'invalid_body',
    means: "a resource scope's description is empty or too long",
  },
  'resource.scope.duplicate': { error: 'invalid_body', means: 'a resource names the same scope twice' },
  'resource.scope.name_invalid': {
    error: 'invalid_body',
    means: "a resource scope's name breaks the naming rule",
  },
  'resource.token_ttl.out_of_range': {
    error: 'invalid_body',
    means: 'access_token_ttl is outside the allowed range',
  },
  'role.description.control_characters': {
    error: 'invalid_body',
    means: "a role's description contains control characters",
  },
  'role.description.length': { error: 'invalid_body', means: "a role's description is too long" },
  'role.name.taken': { error: 'conflict', means: 'a role with this name exists' },
  'role.not_found': { error: 'not_found', means: 'no such role in the organization' },
  'route.not_found': { error: 'not_found', means: 'no API route at this method and path' },
  'scope.console_only': {
    error: 'invalid_scope',
    means: "a console scope was requested from an organization's issuer",
  },
  'scope.resource_not_named': {
    error: 'invalid_scope',
    means: "a resource's scope was requested without naming the resource",
  },
  'scope.unsupported': {
    error: 'invalid_scope',
    means: 'a requested scope is neither an identity scope nor a scope of a named resource',
  },
  'second_factor.already_set_up': { error: 'conflict', means: 'two-step verification is already set up' },
  'second_factor.required': {
    error: 'forbidden',
    means: 'the organization requires two-step verification, so it cannot be removed',
  },
  'service_account.not_found': { error: 'not_found', means: 'no such service account' },
  'service_account.scope.empty': { error: 'invalid_body', means: 'a service account was given no scope' },
  'service_account.scope.unknown': {
    error: 'invalid_body',
    means: 'a service account was given a scope that is not a management scope',
  },
  'service.unavailable': {
    error: 'unavailable',
    means: 'the database is away (temporarily_unavailable on OAuth endpoints)',
  },
  'service.unexpected': { error: 'server_error', means: "an unexpected failure on the server's side" },
  'session.open.no_tenant': {
    error: 'server_error',
    means: 'a session was opened for a user who belongs to no tenant',
  },
  'sign_in.device.decided': {
    error: 'invalid_request',
    means: 'a device request was answered again, or after it expired',
  },
  'sign_in.request.completed': {
    error: 'invalid_request',
    means: 'a sign-in whose authorization request was already completed went on',
  },
  'sign_in.request.expired': {
    error: 'invalid_request',
    means: 'the sign-in link has expired or was already used',
  },
  'sign_in.second_factor.expired': {
    error: 'unauthorized',
    means: 'the sign-in waiting for its second factor has expired',
  },
  'sign_up.closed': { error: 'not_found', means: 'the organization does not offer sign-up' },
  'sign_up.link_required': {
    error: 'forbidden',
    means: 'a sign-up form was posted where accounts come from a mailed link',
  },
  'sign_up.refused': { error: 'forbidden', means: "the organization's sign-up policy refuses this address" },
  'tenant.delete.last': { error: 'conflict', means: 'a user would delete their last tenant' },
  'tenant.delete.strands_member': {
    error: 'conflict',
    means: 'a tenant would be deleted while a member belongs to no other tenant',
  },
  'tenant.logo.invalid': { error: 'invalid_body', means: 'a tenant logo is not an absolute https URL' },
  'tenant.logo.too_long': { error: 'invalid_body', means: 'a tenant logo URL is too long' },
  'tenant.not_found': { error: 'not_found', means: 'no such tenant, or the caller is no member of it' },
  'tenant.owner_required': {
    error: 'forbidden',
    means: 'the caller is a member of the tenant but not its owner',
  },
  'token.code.expired': { error: 'invalid_grant', means: 'the authorization code has expired' },
  'token.code.invalid': {
    error: 'invalid_grant',
    means: 'the authorization code is unknown or was issued to another client',
  },
  'token.code.missing': {
    error: 'invalid_request',
    means: 'the authorization_code grant was sent without code',
  },
  'token.code.dpop_key': {
    error: 'invalid_grant',
    means: 'the authorization code is bound to a DPoP key (dpop_jkt) the token request did not prove',
  },
  'token.code.redirect_uri_mismatch': {
    error: 'invalid_grant',
    means: "redirect_uri differs from the authorization request's",
  },
  'token.code.reused': {
    error: 'invalid_grant',
    means: 'the authorization code was already used; its session is revoked',
  },
  'token.code.session_ended': { error: 'invalid_grant', means: 'the session the code opened has ended' },
  'token.code.verifier_mismatch': {
    error: 'invalid_grant',
    means: "code_verifier does not match the code's challenge",
  },
  'token.code.verifier_missing': {
    error: 'invalid_grant',
    means: 'the code was issued with a PKCE challenge and no code_verifier was sent',
  },
  'token.code.verifier_unexpected': {
    error: 'invalid_grant',
    means: 'code_verifier was sent for a code issued without a PKCE challenge',
  },
  'token.device_code.denied': {
    error: 'access_denied',
    means: 'the person denied the device on the confirmation page',
  },
  'token.device_code.expired': {
    error: 'expired_token',
    means: 'the device code is past its 10 minutes',
  },
  'token.device_code.invalid': {
    error: 'invalid_grant',
    means: 'the device code is unknown, of another organization or issued to another client',
  },
  'token.device_code.missing': {
    error: 'invalid_request',
    means: 'the device_code grant was sent without device_code',
  },
  'token.device_code.pending': {
    error: 'authorization_pending',
    means: "the person has not answered the device's request yet",
  },
  'token.device_code.reused': {
    error: 'invalid_grant',
    means: "the device code's tokens were already issued; its session is revoked",
  },
  'token.device_code.session_ended': {
    error: 'invalid_grant',
    means: 'the session the device was allowed has ended',
  },
  'token.device_code.slow_down': {
    error: 'slow_down',
    means: 'the device polled sooner than its interval; the interval grows by 5 seconds',
  },
  'token.dpop.invalid': {
    error: 'invalid_dpop_proof',
    means: 'the DPoP proof of a token request is malformed, not for this request, too old or replayed',
  },
  'token.dpop.nonce': {
    error: 'use_dpop_nonce',
    means: 'the client must put the DPoP-Nonce this answer carries in its proof',
  },
  'token.dpop.required': {
    error: 'invalid_request',
    means: 'the client registered dpop_bound_access_tokens and sent no DPoP proof',
  },
  'token.exchange.actor_token': { error: 'invalid_request', means: 'actor_token was given' },
  'token.exchange.audience': {
    error: 'invalid_target',
    means: 'audience names another client than the exchanging one',
  },
  'token.exchange.client_not_promotable': {
    error: 'unauthorized_client',
    means: "the client may not promote tokens of the subject token's client",
  },
  'token.exchange.not_allowed': {
    error: 'unauthorized_client',
    means: "the client may promote no client's tokens",
  },
  'token.exchange.requested_token_type': {
    error: 'invalid_request',
    means: 'requested_token_type is not an access token',
  },
  'token.exchange.subject_token_invalid': {
    error: 'invalid_grant',
    means: 'subject_token is not a live user token of the organization',
  },
  'token.exchange.subject_token_type': {
    error: 'invalid_request',
    means: 'subject_token_type is not an access token',
  },
  'token.grant_type.missing': { error: 'invalid_request', means: 'grant_type is missing' },
  'token.grant_type.repeated': { error: 'invalid_request', means: 'grant_type is given more than once' },
  'token.grant_type.unsupported': { error: 'unsupported_grant_type', means: 'grant_type is not supported' },
  'token.grant.not_allowed': {
    error: 'unauthorized_client',
    means: 'the client may not use this grant type',
  },
  'token.id_jag.audience': {
    error: 'invalid_grant',
    means: "the ID-JAG's aud is not this issuer (or names more than one audience)",
  },
  'token.id_jag.audience_not_allowed': {
    error: 'invalid_target',
    means: 'audience is not a trusted app of the organization that lists the asking client',
  },
  'token.id_jag.client_mismatch': {
    error: 'invalid_grant',
    means: "the ID-JAG's client_id is not the authenticated client",
  },
  'token.id_jag.client_not_confidential': {
    error: 'unauthorized_client',
    means: "only an organization's own confidential client may ask for or present an ID-JAG",
  },
  'token.id_jag.expired': { error: 'invalid_grant', means: 'the ID-JAG has expired' },
  'token.id_jag.impersonated': {
    error: 'invalid_grant',
    means:
      "the subject token is an impersonated sign-in's ID token: impersonation does not reach other applications",
  },
  'token.id_jag.invalid': {
    error: 'invalid_grant',
    means: "the ID-JAG's signature, times or claims do not hold",
  },
  'token.id_jag.issuer_unusable': {
    error: 'invalid_grant',
    means: "the keys of the ID-JAG's issuer could not be read from its provider",
  },
  'token.id_jag.malformed': {
    error: 'invalid_grant',
    means: 'the assertion is not an ID-JAG: not a JWT, typ not oauth-id-jag+jwt, or an algorithm not taken',
  },
  'token.id_jag.no_resource': {
    error: 'invalid_target',
    means: 'the ID-JAG names no resource, or more than one',
  },
  'token.id_jag.replayed': {
    error: 'invalid_grant',
    means: 'the ID-JAG was presented before (its jti is single use)',
  },
  'token.id_jag.resource_not_allowed': {
    error: 'invalid_target',
    means: 'resource is not one the trusted app allows',
  },
  'token.id_jag.roles': {
    error: 'invalid_scope',
    means: "the user's roles allow none of the scopes the ID-JAG grants",
  },
  'token.id_jag.scope_not_allowed': {
    error: 'invalid_scope',
    means: 'none of the scopes asked is one the trusted app allows',
  },
  'token.id_jag.subject_token_invalid': {
    error: 'invalid_grant',
    means: 'subject_token is not a live ID token the organization issued to the asking client',
  },
  'token.id_jag.subject_token_type': {
    error: 'invalid_request',
    means: 'an ID-JAG is asked for with a subject_token_type other than an ID token',
  },
  'token.id_jag.unlinked_subject': {
    error: 'invalid_grant',
    means: "the ID-JAG's subject is linked to no user of the organization through that connection",
  },
  'token.id_jag.untrusted_issuer': {
    error: 'invalid_grant',
    means: "the ID-JAG's issuer is no connection the organization trusts for ID-JAGs",
  },
  'token.machine.resource_not_permitted': {
    error: 'invalid_scope',
    means: 'a client asked for a resource it is permitted no scope of',
  },
  'token.machine.scope_not_permitted': {
    error: 'invalid_scope',
    means: 'a client asked for a resource scope it is not permitted',
  },
  'token.parameter.missing': { error: 'invalid_request', means: 'a parameter the grant requires is missing' },
  'token.refresh.dpop_key': {
    error: 'invalid_grant',
    means: 'the refresh token is bound to a DPoP key the request did not prove',
  },
  'token.refresh.expired': { error: 'invalid_grant', means: 'the refresh token has expired' },
  'token.refresh.invalid': {
    error: 'invalid_grant',
    means: 'the refresh token is unknown or was issued to another client',
  },
  'token.refresh.just_rotated': {
    error: 'invalid_grant',
    means:
      'the refresh token was just rotated, within the grace period, and cannot be retried: another retry won, or the client is public and cannot prove it holds the token',
  },
  'token.refresh.no_tenant': {
    error: 'invalid_grant',
    means: 'the user of the refresh token belongs to no tenant',
  },
  'token.refresh.retired': {
    error: 'invalid_grant',
    means:
      'the refresh token was the successor of a retried refresh that its client never received; retired without revoking',
  },
  'token.refresh.reused': {
    error: 'invalid_grant',
    means: 'the refresh token was already used; its session is revoked',
  },
  'token.refresh.scope_widened': {
    error: 'invalid_scope',
    means: 'a refresh asked for scope beyond what the session was granted',
  },
  'token.refresh.session_ended': {
    error: 'invalid_grant',
    means: 'the session of the refresh token has ended',
  },
  'token.resource.not_granted': {
    error: 'invalid_target',
    means: 'resource names a resource the authorization did not grant',
  },
  'token.resource.unregistered': {
    error: 'invalid_target',
    means: 'the resource the authorization granted is no longer registered',
  },
  'token.service_account.scope_empty': {
    error: 'invalid_scope',
    means: "a service account's scope names no scope",
  },
  'token.service_account.scope_refused': {
    error: 'invalid_scope',
    means: 'a service account asked for a scope it does not have',
  },
  'token.switch_tenant.dpop_key': {
    error: 'invalid_grant',
    means: 'access_token is bound to a DPoP key the request did not prove',
  },
  'token.switch_tenant.not_member': {
    error: 'invalid_grant',
    means: 'the user is not a member of the tenant asked for',
  },
  'token.switch_tenant.session_ended': {
    error: 'invalid_grant',
    means: 'the session of the access token has ended',
  },
  'token.switch_tenant.token_invalid': {
    error: 'invalid_grant',
    means: 'access_token is not a live user token of the client',
  },
  'token.token.missing': {
    error: 'invalid_request',
    means: 'revocation or introspection was sent without token',
  },
  'token.user.gone': { error: 'invalid_grant', means: 'the user of the session no longer exists' },
  'trusted_app.audience.invalid': {
    error: 'invalid_request',
    means: "a trusted app's audience is not an https issuer URL",
  },
  'trusted_app.client.unknown': {
    error: 'invalid_request',
    means: 'a trusted app names a client that is not a confidential client of the organization',
  },
  'trusted_app.client.taken': {
    error: 'conflict',
    means: 'another trusted app of the organization gives that client the same audience',
  },
  'trusted_app.not_found': { error: 'not_found', means: 'no such trusted app in the organization' },
  'trusted_app.resource.invalid': {
    error: 'invalid_request',
    means: "a trusted app's resource is not an absolute URI without a fragment",
  },
  'trusted_app.scope.invalid': {
    error: 'invalid_request',
    means: "a trusted app's scope is not a scope token",
  },
  'trusted_app.target_client_id.invalid': {
    error: 'invalid_request',
    means: "a trusted app's target_client_id is empty or too long",
  },
  'user.address.not_string': { error: 'invalid_body', means: 'a part of an address is not a string' },
  'user.address.too_long': { error: 'invalid_body', means: 'a part of an address is too long' },
  'user.address.unknown_part': {
    error: 'invalid_body',
    means: 'an address names a part an address does not have',
  },
  'user.birthdate.invalid': {
    error: 'invalid_body',
    means: 'birthdate is not YYYY or YYYY-MM-DD, a real date',
  },
  'user.claim_url.invalid': {
    error: 'invalid_body',
    means: 'a URL claim (picture, profile, website) is not an http(s) URL or is too long',
  },
  'user.email.taken': { error: 'conflict', means: 'a user with this email address exists' },
  'branding.colour.invalid': { error: 'invalid_body', means: 'a brand colour that is not a hex colour' },
  'branding.colour.contrast': {
    error: 'invalid_body',
    means: 'a brand colour on which neither white nor dark text reaches WCAG AA contrast (4.5:1)',
  },
  'branding.image.type': {
    error: 'invalid_body',
    means: 'a brand image that is not PNG, JPEG or WebP by its bytes (SVG included)',
  },
  'branding.image.too_large': { error: 'invalid_body', means: 'a brand image over 256 KB' },
  'branding.image.invalid': {
    error: 'invalid_body',
    means:
      'a brand image that is malformed, too large in pixels, animated, or has bytes after its end or markup in it',
  },
  'branding.image.encoding': { error: 'invalid_body', means: 'a brand image that is not base64' },
  'branding.asset.unknown': {
    error: 'not_found',
    means: 'no image or stylesheet of this org’s brands at this /branding/ address',
  },
  'branding.link.invalid': {
    error: 'invalid_body',
    means: 'a terms or privacy link that is not https (or http on localhost)',
  },
  'texts.locale.unsupported': {
    error: 'not_found',
    means: 'the path names a language the pages do not speak',
  },
  'texts.messages.too_many': { error: 'invalid_body', means: 'more keys than one request may change' },
  'texts.key.unknown': { error: 'invalid_body', means: 'a key that is not in the catalog' },
  'texts.message.too_long': { error: 'invalid_body', means: 'a message longer than allowed' },
  'texts.message.control_characters': { error: 'invalid_body', means: 'a message with control characters' },
  'texts.message.syntax': { error: 'invalid_body', means: 'a message that is not valid ICU syntax' },
  'texts.message.argument': {
    error: 'invalid_body',
    means: 'a message using an argument the catalog’s message does not have',
  },
  'texts.message.format': {
    error: 'invalid_body',
    means: 'a message that cannot be formatted with its arguments’ values',
  },
  'user.locale.invalid': { error: 'invalid_body', means: 'locale is not a BCP 47 language tag' },
  'user.not_found': { error: 'not_found', means: 'no such user' },
  'user.phone_number.invalid': { error: 'invalid_body', means: 'phone_number is not in E.164 form' },
  'user.phone_verified.no_phone': {
    error: 'invalid_body',
    means: 'phone_number_verified was set for a user without a phone number',
  },
  'user.roles.too_many': { error: 'invalid_body', means: 'a user was given more roles than allowed' },
  'user.roles.unknown': {
    error: 'invalid_body',
    means: 'a user was given a role the organization does not have',
  },
  'user.token.user_gone': {
    error: 'unauthorized',
    means: "a user's token is valid but the user no longer exists",
  },
  'user.zoneinfo.invalid': { error: 'invalid_body', means: 'zoneinfo is not an IANA time zone' },
  'userinfo.access_token.repeated': {
    error: 'invalid_request',
    means: 'access_token is given more than once in the body',
  },
  'userinfo.access_token.two_ways': {
    error: 'invalid_request',
    means: 'the access token was sent both in the header and in the body',
  },
  'userinfo.openid_scope.missing': {
    error: 'forbidden',
    means: 'the access token was not granted the openid scope',
  },
  'webhook.delivery.in_flight': { error: 'conflict', means: 'the delivery is being attempted right now' },
  'webhook.delivery.not_found': { error: 'not_found', means: 'no such delivery of the webhook' },
  'webhook.inactive': { error: 'conflict', means: 'the webhook is inactive' },
  'webhook.not_found': { error: 'not_found', means: 'no such webhook in the organization' },
  'webhook.url.loopback': { error: 'invalid_request', means: 'a webhook URL points at this machine' },
  'directory.connection.unknown': {
    error: 'invalid_request',
    means: "a directory's connection is not a connection of the organization",
  },
  'directory.console_org': {
    error: 'invalid_request',
    means: 'the console organization has no SCIM directories',
  },
  'directory.name.invalid': {
    error: 'invalid_request',
    means: "a directory's name is empty or longer than 100 characters",
  },
  'directory.not_found': { error: 'not_found', means: 'no such SCIM directory in the organization' },
  'directory.group.not_found': { error: 'not_found', means: 'no such group in the SCIM directory' },
  'directory.group.roles_invalid': {
    error: 'invalid_request',
    means: 'a group is mapped to too many roles, or to one that is not a role of the organization',
  },
  'directory.user.held': {
    error: 'conflict',
    means: 'the user to adopt is already held by a directory, or their address is a userName of this one',
  },
  'scim.attributes.invalid': {
    error: 'invalid_query',
    means: 'attributes or excludedAttributes is not a list of attribute paths',
  },
  'scim.body.invalid': {
    error: 'invalid_body',
    means: 'a SCIM request body is not the resource or PatchOp message it must be',
  },
  'scim.filter.invalid': {
    error: 'invalid_query',
    means: 'a SCIM filter does not parse, or is too long, too deep or has too many terms',
  },
  'scim.filter.too_many': {
    error: 'invalid_query',
    means: 'a SCIM filter no index serves would read more users than a request may',
  },
  'scim.group.not_found': { error: 'not_found', means: 'no such group in the directory' },
  'scim.paging.invalid': {
    error: 'invalid_query',
    means: 'startIndex or count is not a non-negative integer',
  },
  'scim.path.invalid': { error: 'invalid_body', means: "a PATCH operation's path is not an attribute path" },
  'scim.patch.no_target': {
    error: 'invalid_body',
    means: "a PATCH operation's path selects nothing to change",
  },
  'scim.query.repeated': { error: 'invalid_query', means: 'a SCIM query parameter is given more than once' },
  'scim.schema.not_found': { error: 'not_found', means: 'no such SCIM schema or resource type' },
  'scim.user.address_held': {
    error: 'conflict',
    means: 'the address belongs to a user the directory did not create (an owner may adopt them)',
  },
  'scim.user.not_found': { error: 'not_found', means: 'no such user in the directory' },
  'scim.user.outside_domains': {
    error: 'invalid_body',
    means: "the address is outside the domains of the directory's connection",
  },
  'scim.user.taken': {
    error: 'conflict',
    means: 'a user of the directory already has this userName or address',
  },
  'scim.value.read_only': {
    error: 'invalid_body',
    means: 'a PATCH operation targets a read-only attribute (a user’s groups change through /Groups)',
  },
  'scim.value.invalid': {
    error: 'invalid_body',
    means: 'a SCIM attribute has a value of the wrong type or size, or a required one is missing',
  },
  'scim.version.mismatch': {
    error: 'precondition_failed',
    means: 'If-Match names a version the SCIM resource no longer has',
  },
} as const;

/** A situation's stable code. */
export type ErrorSituation = keyof typeof ERROR_CODES;
