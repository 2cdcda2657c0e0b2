import type { ErrorSituation } from '../../domain/errors.js';
import type { Decision } from '../../domain/sign-in/index.js';
import type { Visit } from './hosted-page.js';
import { textsOf } from './page-texts.js';
import { sendErrorPage } from './respond.js';

/** Whether the form's `decision` is an answer at all (`allow` or `deny`). */
export const isDecision = (value: string): value is Decision => value === 'allow' || value === 'deny';

/** The answer to a consent form sent without choosing: 400, the page asking to choose, named by `situation`. */
export const refuseUndecided = ({ org, request, reply }: Visit, situation: ErrorSituation) =>
  sendErrorPage(reply, org.name, 400, textsOf(request).t('consent.choose'), situation);
