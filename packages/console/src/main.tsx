import { render } from 'preact';
import { App } from './app.js';
import { completeSignIn, SignInError, signIn } from './auth/session.js';
import { navigate } from './router.js';
import { SignInProblem } from './screens/sign-in-problem.js';
import './styles.css';

const root = document.getElementById('app') as HTMLElement;

/**
 * Start-up: /console/callback finishes a sign-in and returns to the page it began on; any other
 * page with no token in memory (a first visit, a reload) goes through the hosted login first.
 */
async function start() {
  if (location.pathname === '/console/callback') {
    try {
      navigate(await completeSignIn(new URLSearchParams(location.search)), { replace: true });
    } catch (error) {
      const problem = error instanceof SignInError ? error : new SignInError('server_error', String(error));
      history.replaceState(null, '', '/console/');
      render(<SignInProblem code={problem.code} message={problem.message} />, root);
      return;
    }
  } else if (location.pathname === '/console/signed-out') {
    render(<SignInProblem code="signed_out" message="You have signed out of the console." />, root);
    return;
  } else {
    await signIn();
  }
  render(<App />, root);
}

void start();
