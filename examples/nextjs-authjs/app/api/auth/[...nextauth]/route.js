// Auth.js's routes: /api/auth/signin, /api/auth/callback/tessera (the redirect URI to register), …
import { handlers } from '../../../../auth.js';

export const { GET, POST } = handlers;
