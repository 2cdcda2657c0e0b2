import type { Locale } from '../../locales.js';
import { AR } from './ar.js';
import { DE } from './de.js';
import { type Catalog, EN, type MessageKey } from './en.js';
import { ES } from './es.js';
import { FR } from './fr.js';
import { JA } from './ja.js';
import { PT_BR } from './pt-br.js';

export type { Catalog, MessageKey };

export const CATALOGS: Readonly<Record<Locale, Catalog>> = {
  en: EN,
  de: DE,
  fr: FR,
  es: ES,
  ja: JA,
  'pt-BR': PT_BR,
  ar: AR,
};

export const MESSAGE_KEYS = Object.keys(EN) as MessageKey[];
