import { failApi } from '../errors.js';
import type { IdpSettings } from '../types.js';

const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

function attribute(tag: string, name: string): string | null {
  const match = new RegExp(`\\s${name}\\s*=\\s*("([^"]*)"|'([^']*)')`).exec(tag);
  return match ? (match[2] ?? match[3] ?? null) : null;
}

const unescapeXml = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/**
 * The entity id, the HTTP-Redirect single sign-on URL and the signing certificates of an IdP's
 * SAML metadata (an EntityDescriptor with an IDPSSODescriptor), as Okta, Entra ID and Google
 * Workspace publish it. Only these three values are read; the document is not trusted for
 * anything else. Refused (400) when one is missing.
 */
export function readIdpMetadata(xml: string): IdpSettings {
  const entity = /<(?:[\w-]+:)?EntityDescriptor\b[^>]*>/.exec(xml);
  const entityId = entity ? attribute(entity[0], 'entityID') : null;
  const idp = /<(?:[\w-]+:)?IDPSSODescriptor\b[\s\S]*?<\/(?:[\w-]+:)?IDPSSODescriptor>/.exec(xml);
  if (!entityId || !idp)
    failApi(
      'connection.saml_metadata.not_idp',
      'metadata_xml: not SAML IdP metadata (no EntityDescriptor with an IDPSSODescriptor)',
    );
  const descriptor = idp?.[0] ?? '';
  const services = [...descriptor.matchAll(/<(?:[\w-]+:)?SingleSignOnService\b[^>]*>/g)].map((m) => m[0]);
  const redirect = services.find((s) => attribute(s, 'Binding') === REDIRECT_BINDING);
  const ssoUrl = redirect ? attribute(redirect, 'Location') : null;
  if (!ssoUrl)
    failApi(
      'connection.saml_metadata.no_redirect',
      'metadata_xml: the IdP offers no HTTP-Redirect SingleSignOnService',
    );
  const certificates: string[] = [];
  for (const key of descriptor.matchAll(
    /<(?:[\w-]+:)?KeyDescriptor\b([^>]*)>([\s\S]*?)<\/(?:[\w-]+:)?KeyDescriptor>/g,
  )) {
    const use = attribute(`<x${key[1] ?? ''}>`, 'use');
    if (use !== null && use !== 'signing') continue;
    const cert = /<(?:[\w-]+:)?X509Certificate>([\s\S]*?)<\/(?:[\w-]+:)?X509Certificate>/.exec(key[2] ?? '');
    if (cert?.[1]) certificates.push(cert[1].replace(/\s+/g, ''));
  }
  if (certificates.length === 0)
    failApi('connection.saml_metadata.no_certificate', 'metadata_xml: the IdP names no signing certificate');
  return { entityId: unescapeXml(entityId as string), ssoUrl: unescapeXml(ssoUrl as string), certificates };
}
