/**
 * Every situation the service refuses, each by a stable code listed once here: the answer's
 * `Tessera-Error-Code` header names it (http/errors.ts), beside the body the spec fixes, which stays as
 * it is. Each is declared as `[error, means]`: `error` is the protocol error the situation answers with
 * (domain/errors.ts); a route may answer the same situation with its family's word (a domain's
 * `invalid_body` is the management API's `invalid_request`). `means` is the line docs/errors.md shows.
 *
 * A code is `area.subject.problem` (two to four lowercase parts, words joined by `_`). Once
 * published a code never changes and is never reused for another situation: add a code, never rename one.
 */
const SITUATIONS = {
  'auth.bearer.unknown': ['unauthorized', 'the bearer token is missing, expired, forged or not for this API'],
  'auth.dpop.refused': [
    'unauthorized',
    'a DPoP-bound token came without its proof, as Bearer, or with a proof refused (WWW-Authenticate: DPoP names why)',
  ],
  'authorize.access_denied': ['access_denied', 'the person declined the application on the consent page'],
  'authorize.acr.unmet': [
    'unmet_authentication_requirements',
    'the sign-in did not reach an essential acr value',
  ],
  'authorize.acr.unreachable': [
    'unmet_authentication_requirements',
    'none of the essential acr values can be reached here',
  ],
  'authorize.claims.essential_not_boolean': ['invalid_request', "a claim's essential is not true or false"],
  'authorize.claims.malformed': ['invalid_request', 'the claims parameter is not JSON'],
  'authorize.claims.not_object': ['invalid_request', 'the claims parameter is JSON but not an object'],
  'authorize.claims.request_not_object': [
    'invalid_request',
    "a claim's request in claims is neither null nor an object",
  ],
  'authorize.claims.target_not_object': [
    'invalid_request',
    'claims.userinfo or claims.id_token is not an object',
  ],
  'authorize.claims.too_long': ['invalid_request', 'the claims parameter is too long'],
  'authorize.claims.too_many': ['invalid_request', 'claims names more claims than allowed'],
  'authorize.claims.values_not_array': ['invalid_request', "a claim's values is not an array"],
  'authorize.client_id.missing': ['invalid_request', 'the authorization request has no client_id'],
  'authorize.client.code_flow_refused': [
    'unauthorized_client',
    'the client may not use the authorization code flow',
  ],
  'authorize.client.document_closed': [
    'invalid_client',
    'a client_id URL names a metadata document where the org takes none',
  ],
  'authorize.client.document_refused': [
    'invalid_client',
    'a client metadata document could not be fetched or was refused',
  ],
  'authorize.client.unknown': ['invalid_client', 'the authorization request names an unknown client'],
  'authorize.consent_required': [
    'consent_required',
    'prompt=none and the person has not allowed the application',
  ],
  'authorize.id_token_hint.foreign': [
    'invalid_request',
    'id_token_hint at authorization is not an ID token of this issuer',
  ],
  'authorize.identifying_parameter.repeated': [
    'invalid_request',
    'client_id, redirect_uri or request is given more than once (no redirect)',
  ],
  'authorize.login_hint.too_long': ['invalid_request', 'login_hint is too long'],
  'authorize.login_required.hint_mismatch': [
    'login_required',
    'prompt=none and id_token_hint names someone other than the signed-in person',
  ],
  'authorize.login_required.signed_out': ['login_required', 'prompt=none and nobody is signed in'],
  'authorize.login_required.sub_mismatch': [
    'login_required',
    'the claims parameter asks for a sub other than the signed-in person',
  ],
  'authorize.login_required.too_old': [
    'login_required',
    'prompt=none and the sign-in is older than max_age allows',
  ],
  'authorize.max_age.invalid': ['invalid_request', 'max_age is not a number of seconds'],
  'authorize.dpop_jkt.invalid': [
    'invalid_request',
    'dpop_jkt is not the base64url SHA-256 thumbprint of a key (RFC 9449 §10)',
  ],
  'authorize.nonce.too_long': ['invalid_request', 'nonce is too long'],
  'authorize.parameter.repeated': ['invalid_request', 'an authorization parameter is given more than once'],
  'authorize.pkce.challenge_malformed': [
    'invalid_request',
    'code_challenge is not a well-formed S256 challenge',
  ],
  'authorize.pkce.method_unsupported': ['invalid_request', 'code_challenge_method is not S256'],
  'authorize.pkce.method_without_challenge': [
    'invalid_request',
    'code_challenge_method was given without code_challenge',
  ],
  'authorize.pkce.required': ['invalid_request', 'a public client sent no code_challenge'],
  'authorize.prompt.none_combined': ['invalid_request', 'prompt=none is combined with other values'],
  'authorize.prompt.unsupported': ['invalid_request', 'prompt holds a value that is not supported'],
  'authorize.pushed_request.required': [
    'invalid_request',
    'the client or its org must push authorization requests (RFC 9126) and sent one without request_uri',
  ],
  'authorize.redirect_uri.missing': [
    'invalid_request',
    'redirect_uri is missing and the client has more than one registered',
  ],
  'authorize.redirect_uri.unregistered': ['invalid_request', 'redirect_uri is not registered for the client'],
  'authorize.request_object.bad_characters': [
    'invalid_request_object',
    'a parameter holds a NUL character or an unpaired surrogate',
  ],
  'authorize.request_object.client_mismatch': [
    'invalid_request_object',
    'a request object names another client_id than the query',
  ],
  'authorize.request_object.encrypted': ['invalid_request_object', 'an encrypted request object was sent'],
  'authorize.request_object.expired': ['invalid_request_object', 'the request object has expired'],
  'authorize.request_object.nested': [
    'invalid_request_object',
    'a request object holds request or request_uri',
  ],
  'authorize.request_object.no_keys': [
    'invalid_request_object',
    'the client has no registered keys to verify a request object with',
  ],
  'authorize.request_object.not_jwt': ['invalid_request_object', 'request is not a JWT'],
  'authorize.request_object.not_string': [
    'invalid_request_object',
    'a parameter in the request object is not a string',
  ],
  'authorize.request_object.response_type_mismatch': [
    'invalid_request_object',
    'a request object names another response_type than the query',
  ],
  'authorize.request_object.too_deep': [
    'invalid_request_object',
    'a value in the request object is nested too deeply',
  ],
  'authorize.request_object.unsigned': [
    'request_not_supported',
    'an unsigned request object from a client not registered for them',
  ],
  'authorize.request_object.unverified': [
    'invalid_request_object',
    "the request object's signature, iss or aud is wrong",
  ],
  'authorize.request_object.with_request_uri': ['invalid_request', 'request and request_uri are both given'],
  'authorize.request_object.wrong_alg': [
    'invalid_request_object',
    'a request object signed with an algorithm the client does not use',
  ],
  'authorize.request_uri.invalid': [
    'invalid_request_uri',
    'the request_uri of a pushed request is unknown, expired, already used or another org’s',
  ],
  'authorize.request_uri.other_client': [
    'invalid_request_uri',
    'the request_uri of a pushed request was pushed by another client',
  ],
  'authorize.request_uri.unsupported': [
    'request_uri_not_supported',
    'a request_uri other than one /oauth/par handed out was given',
  ],
  'authorize.response_mode.unsupported': ['invalid_request', 'response_mode is not one that is supported'],
  'authorize.response_type.missing': ['invalid_request', 'the authorization request has no response_type'],
  'authorize.response_type.unsupported': ['unsupported_response_type', 'response_type is not code'],
  'authorize.state.too_long': ['invalid_request', 'state is too long'],
  'body.field.invalid': [
    'invalid_body',
    'a field of an API body is unknown, missing or invalid (invalid_request on the management API)',
  ],
  'body.not_object': [
    'invalid_body',
    'an API body is not a JSON object (invalid_request on the management API)',
  ],
  'client_auth.assertion_type.unsupported': ['invalid_request', 'client_assertion_type is not jwt-bearer'],
  'client_auth.assertion.missing': [
    'invalid_request',
    'client_assertion_type was given without client_assertion',
  ],
  'client_auth.assertion.refused': [
    'invalid_client',
    'a client assertion whose signature held was refused (expired, replayed, wrong audience)',
  ],
  'client_auth.basic.client_id_mismatch': [
    'invalid_request',
    'client_id differs from the client of the Basic credentials',
  ],
  'client_auth.basic.malformed': ['invalid_client', 'the Basic credentials are malformed'],
  'client_auth.client_id.mismatch': [
    'invalid_request',
    'client_id differs from the client the assertion is for',
  ],
  'client_auth.client_id.missing': ['invalid_request', 'a request names no client'],
  'client_auth.failed': [
    'invalid_client',
    'unknown client, wrong secret or wrong method (one code: never says which)',
  ],
  'client_auth.methods.multiple': ['invalid_request', 'more than one client authentication method was used'],
  'client_auth.public_refused': [
    'invalid_client',
    'a public client called introspection, which answers confidential clients only',
  ],
  'client.allowed_origin.invalid': [
    'invalid_body',
    'an allowed origin is not an https origin (or loopback http) without a path',
  ],
  'client.allowed_origins.too_many': ['invalid_body', 'a client names more allowed origins than the limit'],
  'client.backchannel_logout_uri.invalid': [
    'invalid_body',
    'backchannel_logout_uri is not https (or http on loopback), has a fragment or credentials, or is too long',
  ],
  'client.backchannel_logout_uri.service_host': [
    'invalid_body',
    "backchannel_logout_uri is on one of this service's hosts",
  ],
  'client.frontchannel_logout_uri.invalid': [
    'invalid_body',
    'frontchannel_logout_uri is not https (or http on loopback), has a fragment or credentials, or is too long',
  ],
  'client.frontchannel_logout_uri.service_host': [
    'invalid_body',
    "frontchannel_logout_uri is on one of this service's hosts",
  ],
  'client.grant_types.invalid': [
    'invalid_body',
    "a new client's grant types do not fit its kind or redirect URIs",
  ],
  'client.jwks_uri.credentials': ['invalid_body', 'jwks_uri has a fragment, a user name or a password'],
  'client.jwks_uri.invalid': ['invalid_body', 'jwks_uri is not an absolute URL, or too long'],
  'client.jwks_uri.not_https': ['invalid_body', 'jwks_uri is not an https URL'],
  'client.jwks_uri.public_client': ['invalid_body', 'a public client was given a key set URL (jwks_uri)'],
  'client.jwks.both_sources': ['invalid_body', 'a client would have both jwks and jwks_uri'],
  'client.jwks.key_count': ['invalid_body', 'a key set holds no key or more keys than allowed'],
  'client.jwks.key_type': ['invalid_body', 'a key in the set is not an RSA, EC or OKP public key'],
  'client.jwks.private_key': ['invalid_body', 'a key in the set holds private or secret members'],
  'client.jwks.public_client': ['invalid_body', 'a public client was given a key set (jwks)'],
  'client.logout_session_required.without_uri': [
    'invalid_body',
    'a logout session_required flag was given with no logout URI to go with it',
  ],
  'client.not_found': ['not_found', 'no such client in the organization'],
  'client.permissions.public_client': [
    'invalid_body',
    'permissions were given to a public client, which gets no machine tokens',
  ],
  'client.promote_from.not_public': ['invalid_body', 'promote-from names a client that is not public'],
  'client.promote_from.public_client': [
    'invalid_body',
    'a public client was given clients to promote tokens from',
  ],
  'client.promote_from.unknown': ['invalid_body', 'promote-from names no client of the organization'],
  'client.redirect_uri.http_not_loopback': [
    'invalid_body',
    'an http redirect URI names a host other than loopback',
  ],
  'client.redirect_uri.invalid': [
    'invalid_body',
    'a redirect URI breaks a rule (fragment, credentials, wildcard)',
  ],
  'client.redirect_uri.not_absolute': ['invalid_body', 'a redirect URI is not an absolute URL'],
  'client.redirect_uri.scheme': ['invalid_body', "a redirect URI's scheme is refused"],
  'client.request_object_alg.public_client': [
    'invalid_body',
    'a public client was given a request object signing algorithm other than none',
  ],
  'client.request_object_alg.unsupported': [
    'invalid_body',
    'request_object_signing_alg is not one of the supported algorithms',
  ],
  'client.secret.public_client': [
    'conflict',
    'a secret rotation was asked for a public client, which has none',
  ],
  'client.update.grant_types_invalid': [
    'invalid_body',
    "a client's changed grant types or redirect URIs no longer fit together",
  ],
  'connection.certificate.invalid': ['invalid_request', 'a SAML certificate is not an X.509 certificate'],
  'connection.default_roles.unknown': [
    'invalid_request',
    'default_roles names a role the organization does not have',
  ],
  'connection.domain.claimed': ['conflict', 'a domain is claimed by another connection of the organization'],
  'connection.domain.invalid': ['invalid_request', "an entry of a connection's domains is not a domain name"],
  'connection.endpoint_hosts.invalid': [
    'invalid_request',
    'an entry of allowed_endpoint_hosts is not a host name',
  ],
  'connection.endpoint_hosts.too_many': [
    'invalid_request',
    'allowed_endpoint_hosts names more hosts than allowed',
  ],
  'connection.hosted_domain.invalid': ['invalid_request', 'hosted_domain is not a domain name'],
  'connection.name.empty': ['invalid_request', "a connection's name is empty"],
  'connection.not_found': ['not_found', 'no such connection in the organization'],
  'connection.saml_metadata.no_certificate': [
    'invalid_request',
    "the identity provider's metadata names no signing certificate",
  ],
  'connection.saml_metadata.no_redirect': [
    'invalid_request',
    'the identity provider offers no HTTP-Redirect sign-on service',
  ],
  'connection.saml_metadata.not_idp': [
    'invalid_request',
    'metadata_xml is not SAML identity provider metadata',
  ],
  'connection.saml.incomplete': [
    'invalid_request',
    'a SAML connection has neither metadata nor the entity id, SSO URL and certificate',
  ],
  'connection.test.busy': [
    'unavailable',
    "too many calls to providers are running for the org: a connection's test is not made now",
  ],
  'connection.test.no_upstreams': [
    'unavailable',
    'a connection was tested in a process that does not reach providers (only tessera serve does)',
  ],
  'connection.test.unusable': [
    'invalid_request',
    "a tested connection's provider could not be used: unreachable, refused, or its discovery is wrong",
  ],
  'connection.type_mismatch': ['invalid_request', 'a field of the other connection type was given'],
  'connection.url.credentials': ['invalid_request', "a connection's URL has a fragment or credentials"],
  'connection.url.not_absolute': ['invalid_request', "a connection's URL is not an absolute URL"],
  'connection.url.not_https': ['invalid_request', "a connection's URL is not an https URL"],
  'connection.url.private_address': [
    'invalid_request',
    "a connection's URL points at a private or loopback address",
  ],
  'consent.decision.missing': ['invalid_request', 'the consent form was posted with neither Allow nor Deny'],
  'console.org.create_failed': ['server_error', 'the console organization could not be created'],
  'console.org.missing': ['server_error', 'the console organization is missing from the database'],
  'device.decision.missing': [
    'invalid_request',
    'the device confirmation form was posted with neither Allow nor Deny',
  ],
  'device.user_code.invalid': [
    'invalid_request',
    'the code typed on the device page names no pending device request of this organization',
  ],
  'device.user_code.throttled': [
    'rate_limited',
    'too many codes were typed on the device page from this address, or this code was tried too often',
  ],
  'domain.console': ['invalid_body', 'the console org takes no custom domain'],
  'domain.dns.unreachable': [
    'bad_gateway',
    'the DNS servers did not answer for the domain’s TXT record (timeout, refusal, SERVFAIL)',
  ],
  'domain.exists': ['conflict', 'the domain is already one of the organization’s'],
  'domain.limit': ['conflict', 'the organization has as many domains as it may'],
  'domain.name.invalid': [
    'invalid_body',
    'the domain is not a host name (an IP address, a port, a path, a bad label, too long)',
  ],
  'domain.name.reserved': [
    'invalid_body',
    'the domain is localhost or one of Tessera’s own hosts, or under one',
  ],
  'domain.not_found': ['not_found', 'no such domain in the organization'],
  'domain.primary': [
    'conflict',
    'the organization’s issuer lives on this domain: move it off before deleting the domain',
  ],
  'domain.taken': ['conflict', 'another organization has verified this domain'],
  'domain.txt.mismatch': [
    'conflict',
    'the domain’s challenge name has TXT records, none of them the domain’s token',
  ],
  'domain.txt.missing': ['conflict', 'the domain’s challenge name has no TXT record'],
  'domain.unverified': ['conflict', 'the issuer cannot move to a domain that is not verified'],
  'federation.claims.control_characters': [
    'invalid_request',
    "the provider's answer contains control characters",
  ],
  'federation.connection.not_oidc': [
    'invalid_request',
    'an OpenID Connect endpoint was called for a connection that does not use it',
  ],
  'federation.connection.not_saml': [
    'invalid_request',
    'a SAML endpoint was called for a connection that does not use SAML',
  ],
  'federation.email.confusable': ['forbidden', "the provider's address reads as another address here"],
  'federation.email.missing': ['forbidden', 'the provider shared no email address'],
  'federation.email.unusable': ['forbidden', 'the provider gave an address this service cannot use'],
  'federation.hosted_domain.mismatch': [
    'forbidden',
    "the provider signed the person in with an account outside the connection's hosted domain",
  ],
  'federation.link.closed': [
    'invalid_request',
    'the mailed proof for linking an account is unknown, expired or already used',
  ],
  'federation.link.lost': ['invalid_request', 'the account-link page was opened without its browser binding'],
  'federation.link.refused': ['forbidden', "the account may not be linked to this connection's identity"],
  'federation.saml.no_id': ['invalid_request', 'the SAML assertion has no id'],
  'federation.saml.replayed': ['invalid_request', 'the SAML assertion was already used'],
  'federation.saml.request_failed': ['bad_gateway', 'the SAML sign-in request could not be made'],
  'federation.saml.response_empty': ['invalid_request', 'the SAML answer is empty'],
  'federation.saml.response_invalid': ['invalid_request', 'the SAML answer does not verify or is malformed'],
  'federation.saml.unsolicited': [
    'invalid_request',
    'the SAML answer does not answer a sign-in started here',
  ],
  'federation.saml.wrong_issuer': ['invalid_request', 'the SAML answer comes from another identity provider'],
  'federation.saml.wrong_recipient': ['invalid_request', 'the SAML answer was sent to another address'],
  'federation.sign_in.completed_elsewhere': [
    'invalid_request',
    'the federated sign-in was completed in another window',
  ],
  'federation.sign_in.expired': [
    'invalid_request',
    'the federated sign-in is unknown, expired or already finished',
  ],
  'federation.sign_in.other_browser': [
    'invalid_request',
    'the federated sign-in was started in another browser',
  ],
  'federation.upstream.busy': ['unavailable', 'too many sign-ins are on their way to the provider'],
  'federation.upstream.declined': [
    'invalid_request',
    'the provider answered with an error instead of a sign-in',
  ],
  'federation.upstream.host_refused': [
    'bad_gateway',
    'the provider sends sign-ins to a host the organization has not allowed',
  ],
  'federation.upstream.no_subject': ['bad_gateway', "the provider's ID token names no subject"],
  'federation.upstream.unreachable': [
    'bad_gateway',
    'the provider cannot be reached or did not answer as an OpenID provider',
  ],
  'federation.upstream.unverified': ['bad_gateway', "the provider's answer could not be verified"],
  'federation.user.disabled': ['forbidden', 'the account a federated sign-in reaches is disabled'],
  'federation.user.foreign_domain': ['forbidden', 'the connection creates accounts for its own domains only'],
  'federation.user.made_by_another': [
    'forbidden',
    'the account of this address was made by another connection',
  ],
  'federation.user.unknown': ['forbidden', 'no account for the address, and the connection creates none'],
  'id_token_hint.expired_long_ago': ['invalid_request', 'id_token_hint expired longer ago than is accepted'],
  'impersonation.client.code_flow_refused': [
    'invalid_request',
    'the client to sign in to does not use the authorization code flow',
  ],
  'impersonation.client.not_found': [
    'invalid_request',
    'the client to sign in to is not a client of the organization',
  ],
  'impersonation.link.closed': ['invalid_request', 'the impersonation link has expired or was already used'],
  'impersonation.pkce.required': [
    'invalid_request',
    "a public client's impersonation link has no code_challenge",
  ],
  'impersonation.redirect_uri.unregistered': [
    'invalid_request',
    "the impersonation link's redirect_uri is not registered for the client",
  ],
  'impersonation.user.disabled': ['conflict', 'the user to act as is disabled'],
  'impersonation.user.not_found': ['not_found', 'the user to act as is not a user of the organization'],
  'input.email.invalid': ['invalid_body', 'an email address is not valid'],
  'input.name.control_characters': ['invalid_body', 'a name contains control characters'],
  'input.name.length': ['invalid_body', 'a name is empty or too long'],
  'input.password.too_long': ['invalid_body', 'a password is longer than 256 characters'],
  'input.password.too_short': ['invalid_body', 'a password is shorter than 8 characters'],
  'input.slug.invalid': ['invalid_body', 'a slug is not 1-40 lowercase letters, digits or inner hyphens'],
  'input.slug.reserved': ['invalid_body', 'a slug is reserved'],
  'invitation.accept.first_name_missing': ['invalid_body', 'an invitation was accepted without a first name'],
  'invitation.accept.user_exists': [
    'conflict',
    'an invitation for a new user was accepted but the user exists',
  ],
  'invitation.already_member': ['conflict', 'the invited address is a member of the organization already'],
  'invitation.already_pending': ['conflict', 'the invited address has a pending invitation already'],
  'invitation.console_org': ['invalid_body', 'an invitation was sent on the console organization'],
  'invitation.not_found': ['not_found', 'no such invitation'],
  'invitation.role.missing': ['invalid_body', 'an invitation names no role'],
  'invitation.roles.duplicate': ['invalid_body', 'an invitation names a role twice'],
  'invitation.roles.not_user': ['invalid_body', 'roles were given to an invitation that is not to be a user'],
  'invitation.roles.too_many': ['invalid_body', 'an invitation names more roles than allowed'],
  'invitation.roles.unknown': ['invalid_body', 'an invitation names a role the organization does not have'],
  'keys.create.failed': ['server_error', 'a new organization did not get its two fresh keys'],
  'keys.retire.access': [
    'server_error',
    'the RS256 keys, which sign access tokens, were to be retired with an algorithm change',
  ],
  'keys.rotation.no_key': ['not_found', 'a rotation was asked for an organization without a signing key'],
  'keys.rotation.raced': ['conflict', 'the signing keys changed while a rotation was under way'],
  'keys.signing.missing': ['server_error', 'the organization has no signing key to sign with'],
  'log_stream.field.other_type': [
    'invalid_request',
    'a log stream change names a setting of another stream type',
  ],
  'log_stream.not_found': ['not_found', 'no such log stream in the organization'],
  'log_stream.too_many': ['conflict', 'the organization has as many log streams as allowed'],
  'log_stream.url.loopback': ['invalid_request', "a log stream's URL points at this machine"],
  'logout.client_id.not_audience': [
    'invalid_request',
    'client_id at sign-out is not the audience of id_token_hint',
  ],
  'logout.client.unknown': ['invalid_request', 'client_id at sign-out names no client'],
  'logout.id_token_hint.foreign': [
    'invalid_request',
    'id_token_hint at sign-out is not an ID token of this issuer',
  ],
  'logout.redirect.no_client': [
    'invalid_request',
    'post_logout_redirect_uri was given without client_id or id_token_hint',
  ],
  'logout.redirect.unregistered': [
    'invalid_request',
    'post_logout_redirect_uri is not registered for the client',
  ],
  'management.not_a_person': ['forbidden', 'the caller is a service account where a person is required'],
  'management.scope.insufficient': ['insufficient_scope', 'the token lacks the scope the operation needs'],
  'management.wrong_host': ['not_found', "the management API was called on an organization's host"],
  'member.last_owner.demote': ['conflict', 'the last owner of an organization would be demoted'],
  'member.last_owner.remove': ['conflict', 'the last owner of an organization would be removed'],
  'member.not_found': ['not_found', 'no such member of the organization'],
  'member.password_required': ['invalid_body', 'a new console member was added without a password'],
  'oauth.form.not_urlencoded': ['invalid_request', 'the body is not application/x-www-form-urlencoded'],
  'oauth.parameter.repeated': ['invalid_request', 'a parameter is given more than once'],
  'org.create.rate_limited': ['rate_limited', 'a user created more organizations in the hour than allowed'],
  'org.host.unknown': ['not_found', 'no organization is served at this host'],
  'org.issuer.moved': [
    'not_found',
    'the organization’s issuer moved to its own domain: this host serves only discovery, the key set and introspection for the tokens it issued, until they expire',
  ],
  'org.not_found': ['not_found', 'no such organization, or the caller may not see it'],
  'org.owner_required': ['forbidden', 'the caller is a member of the organization but not an owner'],
  'org.owner.not_found': ['not_found', 'the owner named for a new organization is no console user'],
  'org.ref.not_found': ['not_found', 'an administration command names no organization by that slug or id'],
  'org.settings.console_signing_alg': [
    'invalid_request',
    'id_token_signing_alg other than RS256 was set on the console issuer',
  ],
  'org.settings.console_pushed_requests': [
    'invalid_request',
    'require_pushed_authorization_requests was set on the console issuer',
  ],
  'org.settings.console_registration': [
    'invalid_request',
    'registration was set on the console issuer, which always offers it',
  ],
  'org.sign_up_domains.invalid': ['invalid_body', 'an entry of sign_up_domains is not a domain name'],
  'org.sign_up_domains.missing': ['invalid_body', 'the sign-up policy "domains" was set without any domain'],
  'org.sign_up_domains.too_many': ['invalid_body', 'sign_up_domains holds more domains than allowed'],
  'org.sign_up.invalid': ['invalid_body', 'sign_up is not one of the sign-up policies'],
  'org.slug.taken': ['conflict', 'an organization with this slug exists'],
  'page.csrf.rejected': [
    'forbidden',
    "a hosted page's form carried no valid anti-forgery token (reload the page)",
  ],
  'page.form.not_form': ['invalid_body', "a hosted page's form was not sent as a form"],
  'page.not_found': ['not_found', 'no hosted page at this path'],
  'par.dpop_jkt.mismatch': [
    'invalid_dpop_proof',
    "a pushed request's dpop_jkt is not the thumbprint of its DPoP proof's key (RFC 9449 §10.1)",
  ],
  'par.request_uri.given': ['invalid_request', 'a pushed authorization request carries request_uri itself'],
  'passkey.name.invalid': ['invalid_request', "a passkey's name is empty or too long"],
  'passkey.register.duplicate': ['conflict', 'the new passkey is already registered'],
  'passkey.register.expired': ['invalid_request', 'the passkey registration challenge has expired'],
  'passkey.register.invalid': ['invalid_request', "the new passkey's answer does not verify"],
  'passkey.register.too_many': ['conflict', 'the user has as many passkeys as allowed'],
  'passkey.sign_in.expired': ['invalid_request', 'the passkey sign-in challenge has expired'],
  'passkey.sign_in.invalid': ['invalid_request', "the passkey's answer at sign-in does not verify"],
  'passkey.sign_in.unknown': ['invalid_request', 'the passkey presented at sign-in is not registered here'],
  'permissions.resource.unknown': [
    'invalid_body',
    'a permission names a resource the organization does not have',
  ],
  'permissions.scope.unknown': ['invalid_body', 'a permission names a scope its resource does not have'],
  'permissions.too_many': ['invalid_body', 'more permissions than allowed were given'],
  'profile.key.invalid': ['invalid_request', "the profile link's key is unknown, expired or already used"],
  'profile.page.expired': ['unauthorized', "the profile page's sign-in has expired"],
  'profile.second_factor.form_invalid': [
    'invalid_request',
    'the two-step verification form of the profile page was not understood',
  ],
  'query.parameter.invalid': ['invalid_query', 'a query parameter is unknown or its value is out of range'],
  'query.parameter.repeated': ['invalid_query', 'a query parameter is given more than once'],
  'registration.body.not_json': ['invalid_client_metadata', 'the registration body is not JSON'],
  'registration.body.not_object': ['invalid_client_metadata', 'the registration body is not a JSON object'],
  'registration.closed': ['not_found', 'the issuer does not offer registration'],
  'registration.metadata.invalid': [
    'invalid_client_metadata',
    'a registration field other than redirect_uris is refused',
  ],
  'registration.rate_limited': [
    'rate_limited',
    "more than 10 registrations in the hour from the caller's address",
  ],
  'registration.redirect_uris.invalid': [
    'invalid_redirect_uri',
    'redirect_uris is missing or empty, or an entry is neither https nor loopback http',
  ],
  'request.body.too_large': ['invalid_request', 'a request body is larger than accepted (413)'],
  'request.body.unsupported_type': ['invalid_request', "a request body's content type is not accepted (415)"],
  'request.host.duplicate': ['invalid_request', 'a request has more than one Host header'],
  'request.malformed': ['invalid_request', 'a request could not be parsed (a malformed body or URL)'],
  'request.text.unstorable': [
    'invalid_request',
    'a request holds text no column can hold (NUL, unpaired surrogates)',
  ],
  'resource_indicator.fragment': ['invalid_target', 'resource has a fragment'],
  'resource_indicator.not_absolute': ['invalid_target', 'resource is not an absolute URI'],
  'resource_indicator.unknown': ['invalid_target', 'resource names no API resource of the organization'],
  'resource.identifier.immutable': ['invalid_request', "a resource's identifier was changed"],
  'resource.identifier.invalid': ['invalid_body', 'a resource identifier is not an acceptable absolute URI'],
  'resource.identifier.taken': ['conflict', 'a resource with this identifier exists'],
  'resource.not_found': ['not_found', 'no such API resource in the organization'],
  'resource.scope.description_length': [
    'invalid_body',
    "a resource scope's description is empty or too long",
  ],
  'resource.scope.duplicate': ['invalid_body', 'a resource names the same scope twice'],
  'resource.scope.name_invalid': ['invalid_body', "a resource scope's name breaks the naming rule"],
  'resource.token_ttl.out_of_range': ['invalid_body', 'access_token_ttl is outside the allowed range'],
  'role.description.control_characters': ['invalid_body', "a role's description contains control characters"],
  'role.description.length': ['invalid_body', "a role's description is too long"],
  'role.name.taken': ['conflict', 'a role with this name exists'],
  'role.not_found': ['not_found', 'no such role in the organization'],
  'route.not_found': ['not_found', 'no API route at this method and path'],
  'scope.console_only': ['invalid_scope', "a console scope was requested from an organization's issuer"],
  'scope.resource_not_named': [
    'invalid_scope',
    "a resource's scope was requested without naming the resource",
  ],
  'scope.unsupported': [
    'invalid_scope',
    'a requested scope is neither an identity scope nor a scope of a named resource',
  ],
  'second_factor.already_set_up': ['conflict', 'two-step verification is already set up'],
  'second_factor.required': [
    'forbidden',
    'the organization requires two-step verification, so it cannot be removed',
  ],
  'service_account.not_found': ['not_found', 'no such service account'],
  'service_account.scope.empty': ['invalid_body', 'a service account was given no scope'],
  'service_account.scope.unknown': [
    'invalid_body',
    'a service account was given a scope that is not a management scope',
  ],
  'service.unavailable': ['unavailable', 'the database is away (temporarily_unavailable on OAuth endpoints)'],
  'service.unexpected': ['server_error', "an unexpected failure on the server's side"],
  'session.open.no_tenant': ['server_error', 'a session was opened for a user who belongs to no tenant'],
  'sign_in.device.decided': ['invalid_request', 'a device request was answered again, or after it expired'],
  'sign_in.request.completed': [
    'invalid_request',
    'a sign-in whose authorization request was already completed went on',
  ],
  'sign_in.request.expired': ['invalid_request', 'the sign-in link has expired or was already used'],
  'sign_in.second_factor.expired': ['unauthorized', 'the sign-in waiting for its second factor has expired'],
  'sign_up.closed': ['not_found', 'the organization does not offer sign-up'],
  'sign_up.link_required': ['forbidden', 'a sign-up form was posted where accounts come from a mailed link'],
  'sign_up.refused': ['forbidden', "the organization's sign-up policy refuses this address"],
  'tenant.delete.last': ['conflict', 'a user would delete their last tenant'],
  'tenant.delete.strands_member': [
    'conflict',
    'a tenant would be deleted while a member belongs to no other tenant',
  ],
  'tenant.logo.invalid': ['invalid_body', 'a tenant logo is not an absolute https URL'],
  'tenant.logo.too_long': ['invalid_body', 'a tenant logo URL is too long'],
  'tenant.not_found': ['not_found', 'no such tenant, or the caller is no member of it'],
  'tenant.owner_required': ['forbidden', 'the caller is a member of the tenant but not its owner'],
  'token.code.expired': ['invalid_grant', 'the authorization code has expired'],
  'token.code.invalid': [
    'invalid_grant',
    'the authorization code is unknown or was issued to another client',
  ],
  'token.code.missing': ['invalid_request', 'the authorization_code grant was sent without code'],
  'token.code.dpop_key': [
    'invalid_grant',
    'the authorization code is bound to a DPoP key (dpop_jkt) the token request did not prove',
  ],
  'token.code.redirect_uri_mismatch': [
    'invalid_grant',
    "redirect_uri differs from the authorization request's",
  ],
  'token.code.reused': ['invalid_grant', 'the authorization code was already used; its session is revoked'],
  'token.code.session_ended': ['invalid_grant', 'the session the code opened has ended'],
  'token.code.verifier_mismatch': ['invalid_grant', "code_verifier does not match the code's challenge"],
  'token.code.verifier_missing': [
    'invalid_grant',
    'the code was issued with a PKCE challenge and no code_verifier was sent',
  ],
  'token.code.verifier_unexpected': [
    'invalid_grant',
    'code_verifier was sent for a code issued without a PKCE challenge',
  ],
  'token.device_code.denied': ['access_denied', 'the person denied the device on the confirmation page'],
  'token.device_code.expired': ['expired_token', 'the device code is past its 10 minutes'],
  'token.device_code.invalid': [
    'invalid_grant',
    'the device code is unknown, of another organization or issued to another client',
  ],
  'token.device_code.missing': ['invalid_request', 'the device_code grant was sent without device_code'],
  'token.device_code.pending': [
    'authorization_pending',
    "the person has not answered the device's request yet",
  ],
  'token.device_code.reused': [
    'invalid_grant',
    "the device code's tokens were already issued; its session is revoked",
  ],
  'token.device_code.session_ended': ['invalid_grant', 'the session the device was allowed has ended'],
  'token.device_code.slow_down': [
    'slow_down',
    'the device polled sooner than its interval; the interval grows by 5 seconds',
  ],
  'token.dpop.invalid': [
    'invalid_dpop_proof',
    'the DPoP proof of a token request is malformed, not for this request, too old or replayed',
  ],
  'token.dpop.nonce': [
    'use_dpop_nonce',
    'the client must put the DPoP-Nonce this answer carries in its proof',
  ],
  'token.dpop.required': [
    'invalid_request',
    'the client registered dpop_bound_access_tokens and sent no DPoP proof',
  ],
  'token.exchange.actor_token': ['invalid_request', 'actor_token was given'],
  'token.exchange.audience': ['invalid_target', 'audience names another client than the exchanging one'],
  'token.exchange.client_not_promotable': [
    'unauthorized_client',
    "the client may not promote tokens of the subject token's client",
  ],
  'token.exchange.not_allowed': ['unauthorized_client', "the client may promote no client's tokens"],
  'token.exchange.requested_token_type': ['invalid_request', 'requested_token_type is not an access token'],
  'token.exchange.subject_token_invalid': [
    'invalid_grant',
    'subject_token is not a live user token of the organization',
  ],
  'token.exchange.subject_token_type': ['invalid_request', 'subject_token_type is not an access token'],
  'token.grant_type.missing': ['invalid_request', 'grant_type is missing'],
  'token.grant_type.repeated': ['invalid_request', 'grant_type is given more than once'],
  'token.grant_type.unsupported': ['unsupported_grant_type', 'grant_type is not supported'],
  'token.grant.not_allowed': ['unauthorized_client', 'the client may not use this grant type'],
  'token.id_jag.audience': [
    'invalid_grant',
    "the ID-JAG's aud is not this issuer (or names more than one audience)",
  ],
  'token.id_jag.audience_not_allowed': [
    'invalid_target',
    'audience is not a trusted app of the organization that lists the asking client',
  ],
  'token.id_jag.client_mismatch': ['invalid_grant', "the ID-JAG's client_id is not the authenticated client"],
  'token.id_jag.client_not_confidential': [
    'unauthorized_client',
    "only an organization's own confidential client may ask for or present an ID-JAG",
  ],
  'token.id_jag.expired': ['invalid_grant', 'the ID-JAG has expired'],
  'token.id_jag.impersonated': [
    'invalid_grant',
    "the subject token is an impersonated sign-in's ID token: impersonation does not reach other applications",
  ],
  'token.id_jag.invalid': ['invalid_grant', "the ID-JAG's signature, times or claims do not hold"],
  'token.id_jag.issuer_unusable': [
    'invalid_grant',
    "the keys of the ID-JAG's issuer could not be read from its provider",
  ],
  'token.id_jag.malformed': [
    'invalid_grant',
    'the assertion is not an ID-JAG: not a JWT, typ not oauth-id-jag+jwt, or an algorithm not taken',
  ],
  'token.id_jag.no_resource': ['invalid_target', 'the ID-JAG names no resource, or more than one'],
  'token.id_jag.replayed': ['invalid_grant', 'the ID-JAG was presented before (its jti is single use)'],
  'token.id_jag.resource_not_allowed': ['invalid_target', 'resource is not one the trusted app allows'],
  'token.id_jag.roles': ['invalid_scope', "the user's roles allow none of the scopes the ID-JAG grants"],
  'token.id_jag.scope_not_allowed': [
    'invalid_scope',
    'none of the scopes asked is one the trusted app allows',
  ],
  'token.id_jag.subject_token_invalid': [
    'invalid_grant',
    'subject_token is not a live ID token the organization issued to the asking client',
  ],
  'token.id_jag.subject_token_type': [
    'invalid_request',
    'an ID-JAG is asked for with a subject_token_type other than an ID token',
  ],
  'token.id_jag.unlinked_subject': [
    'invalid_grant',
    "the ID-JAG's subject is linked to no user of the organization through that connection",
  ],
  'token.id_jag.untrusted_issuer': [
    'invalid_grant',
    "the ID-JAG's issuer is no connection the organization trusts for ID-JAGs",
  ],
  'token.machine.resource_not_permitted': [
    'invalid_scope',
    'a client asked for a resource it is permitted no scope of',
  ],
  'token.machine.scope_not_permitted': [
    'invalid_scope',
    'a client asked for a resource scope it is not permitted',
  ],
  'token.parameter.missing': ['invalid_request', 'a parameter the grant requires is missing'],
  'token.refresh.dpop_key': [
    'invalid_grant',
    'the refresh token is bound to a DPoP key the request did not prove',
  ],
  'token.refresh.expired': ['invalid_grant', 'the refresh token has expired'],
  'token.refresh.invalid': ['invalid_grant', 'the refresh token is unknown or was issued to another client'],
  'token.refresh.just_rotated': [
    'invalid_grant',
    'the refresh token was just rotated, within the grace period, and cannot be retried: another retry won, or the client is public and cannot prove it holds the token',
  ],
  'token.refresh.no_tenant': ['invalid_grant', 'the user of the refresh token belongs to no tenant'],
  'token.refresh.retired': [
    'invalid_grant',
    'the refresh token was the successor of a retried refresh that its client never received; retired without revoking',
  ],
  'token.refresh.reused': ['invalid_grant', 'the refresh token was already used; its session is revoked'],
  'token.refresh.scope_widened': [
    'invalid_scope',
    'a refresh asked for scope beyond what the session was granted',
  ],
  'token.refresh.session_ended': ['invalid_grant', 'the session of the refresh token has ended'],
  'token.resource.not_granted': [
    'invalid_target',
    'resource names a resource the authorization did not grant',
  ],
  'token.resource.unregistered': [
    'invalid_target',
    'the resource the authorization granted is no longer registered',
  ],
  'token.service_account.scope_empty': ['invalid_scope', "a service account's scope names no scope"],
  'token.service_account.scope_refused': [
    'invalid_scope',
    'a service account asked for a scope it does not have',
  ],
  'token.switch_tenant.dpop_key': [
    'invalid_grant',
    'access_token is bound to a DPoP key the request did not prove',
  ],
  'token.switch_tenant.not_member': ['invalid_grant', 'the user is not a member of the tenant asked for'],
  'token.switch_tenant.session_ended': ['invalid_grant', 'the session of the access token has ended'],
  'token.switch_tenant.token_invalid': [
    'invalid_grant',
    'access_token is not a live user token of the client',
  ],
  'token.token.missing': ['invalid_request', 'revocation or introspection was sent without token'],
  'token.user.gone': ['invalid_grant', 'the user of the session no longer exists'],
  'trusted_app.audience.invalid': ['invalid_request', "a trusted app's audience is not an https issuer URL"],
  'trusted_app.client.unknown': [
    'invalid_request',
    'a trusted app names a client that is not a confidential client of the organization',
  ],
  'trusted_app.client.taken': [
    'conflict',
    'another trusted app of the organization gives that client the same audience',
  ],
  'trusted_app.not_found': ['not_found', 'no such trusted app in the organization'],
  'trusted_app.resource.invalid': [
    'invalid_request',
    "a trusted app's resource is not an absolute URI without a fragment",
  ],
  'trusted_app.scope.invalid': ['invalid_request', "a trusted app's scope is not a scope token"],
  'trusted_app.target_client_id.invalid': [
    'invalid_request',
    "a trusted app's target_client_id is empty or too long",
  ],
  'user.address.not_string': ['invalid_body', 'a part of an address is not a string'],
  'user.address.too_long': ['invalid_body', 'a part of an address is too long'],
  'user.address.unknown_part': ['invalid_body', 'an address names a part an address does not have'],
  'user.birthdate.invalid': ['invalid_body', 'birthdate is not YYYY or YYYY-MM-DD, a real date'],
  'user.claim_url.invalid': [
    'invalid_body',
    'a URL claim (picture, profile, website) is not an http(s) URL or is too long',
  ],
  'user.email.taken': ['conflict', 'a user with this email address exists'],
  'branding.colour.invalid': ['invalid_body', 'a brand colour that is not a hex colour'],
  'branding.colour.contrast': [
    'invalid_body',
    'a brand colour on which neither white nor dark text reaches WCAG AA contrast (4.5:1)',
  ],
  'branding.image.type': [
    'invalid_body',
    'a brand image that is not PNG, JPEG or WebP by its bytes (SVG included)',
  ],
  'branding.image.too_large': ['invalid_body', 'a brand image over 256 KB'],
  'branding.image.invalid': [
    'invalid_body',
    'a brand image that is malformed, too large in pixels, animated, or has bytes after its end or markup in it',
  ],
  'branding.image.encoding': ['invalid_body', 'a brand image that is not base64'],
  'branding.asset.unknown': [
    'not_found',
    'no image or stylesheet of this org’s brands at this /branding/ address',
  ],
  'branding.link.invalid': [
    'invalid_body',
    'a terms or privacy link that is not https (or http on localhost)',
  ],
  'texts.locale.unsupported': ['not_found', 'the path names a language the pages do not speak'],
  'texts.messages.too_many': ['invalid_body', 'more keys than one request may change'],
  'texts.key.unknown': ['invalid_body', 'a key that is not in the catalog'],
  'texts.message.too_long': ['invalid_body', 'a message longer than allowed'],
  'texts.message.control_characters': ['invalid_body', 'a message with control characters'],
  'texts.message.syntax': ['invalid_body', 'a message that is not valid ICU syntax'],
  'texts.message.argument': [
    'invalid_body',
    'a message using an argument the catalog’s message does not have',
  ],
  'texts.message.format': ['invalid_body', 'a message that cannot be formatted with its arguments’ values'],
  'user.locale.invalid': ['invalid_body', 'locale is not a BCP 47 language tag'],
  'user.not_found': ['not_found', 'no such user'],
  'user.phone_number.invalid': ['invalid_body', 'phone_number is not in E.164 form'],
  'user.phone_verified.no_phone': [
    'invalid_body',
    'phone_number_verified was set for a user without a phone number',
  ],
  'user.roles.too_many': ['invalid_body', 'a user was given more roles than allowed'],
  'user.roles.unknown': ['invalid_body', 'a user was given a role the organization does not have'],
  'user.token.user_gone': ['unauthorized', "a user's token is valid but the user no longer exists"],
  'user.zoneinfo.invalid': ['invalid_body', 'zoneinfo is not an IANA time zone'],
  'userinfo.access_token.repeated': ['invalid_request', 'access_token is given more than once in the body'],
  'userinfo.access_token.two_ways': [
    'invalid_request',
    'the access token was sent both in the header and in the body',
  ],
  'userinfo.openid_scope.missing': ['forbidden', 'the access token was not granted the openid scope'],
  'webhook.delivery.in_flight': ['conflict', 'the delivery is being attempted right now'],
  'webhook.delivery.not_found': ['not_found', 'no such delivery of the webhook'],
  'webhook.inactive': ['conflict', 'the webhook is inactive'],
  'webhook.not_found': ['not_found', 'no such webhook in the organization'],
  'webhook.url.loopback': ['invalid_request', 'a webhook URL points at this machine'],
  'directory.connection.unknown': [
    'invalid_request',
    "a directory's connection is not a connection of the organization",
  ],
  'directory.console_org': ['invalid_request', 'the console organization has no SCIM directories'],
  'directory.name.invalid': ['invalid_request', "a directory's name is empty or longer than 100 characters"],
  'directory.not_found': ['not_found', 'no such SCIM directory in the organization'],
  'directory.group.not_found': ['not_found', 'no such group in the SCIM directory'],
  'directory.group.roles_invalid': [
    'invalid_request',
    'a group is mapped to too many roles, or to one that is not a role of the organization',
  ],
  'directory.user.held': [
    'conflict',
    'the user to adopt is already held by a directory, or their address is a userName of this one',
  ],
  'scim.attributes.invalid': [
    'invalid_query',
    'attributes or excludedAttributes is not a list of attribute paths',
  ],
  'scim.body.invalid': [
    'invalid_body',
    'a SCIM request body is not the resource or PatchOp message it must be',
  ],
  'scim.filter.invalid': [
    'invalid_query',
    'a SCIM filter does not parse, or is too long, too deep or has too many terms',
  ],
  'scim.filter.too_many': [
    'invalid_query',
    'a SCIM filter no index serves would read more users than a request may',
  ],
  'scim.group.not_found': ['not_found', 'no such group in the directory'],
  'scim.paging.invalid': ['invalid_query', 'startIndex or count is not a non-negative integer'],
  'scim.path.invalid': ['invalid_body', "a PATCH operation's path is not an attribute path"],
  'scim.patch.no_target': ['invalid_body', "a PATCH operation's path selects nothing to change"],
  'scim.query.repeated': ['invalid_query', 'a SCIM query parameter is given more than once'],
  'scim.schema.not_found': ['not_found', 'no such SCIM schema or resource type'],
  'scim.user.address_held': [
    'conflict',
    'the address belongs to a user the directory did not create (an owner may adopt them)',
  ],
  'scim.user.not_found': ['not_found', 'no such user in the directory'],
  'scim.user.outside_domains': [
    'invalid_body',
    "the address is outside the domains of the directory's connection",
  ],
  'scim.user.taken': ['conflict', 'a user of the directory already has this userName or address'],
  'scim.value.read_only': [
    'invalid_body',
    'a PATCH operation targets a read-only attribute (a user’s groups change through /Groups)',
  ],
  'scim.value.invalid': [
    'invalid_body',
    'a SCIM attribute has a value of the wrong type or size, or a required one is missing',
  ],
  'scim.version.mismatch': [
    'precondition_failed',
    'If-Match names a version the SCIM resource no longer has',
  ],
} as const;

type Situations = typeof SITUATIONS;

/** Every situation by its code, in the order listed: its protocol error and what it means. */
export const ERROR_CODES = Object.fromEntries(
  Object.entries(SITUATIONS).map(([code, [error, means]]) => [code, { error, means }]),
) as {
  readonly [C in keyof Situations]: { readonly error: Situations[C][0]; readonly means: Situations[C][1] };
};

/** A situation's stable code. */
export type ErrorSituation = keyof Situations;
