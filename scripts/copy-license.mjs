// Puts the repository's LICENSE into the package being packed (prepack) and takes that copy away again
// (postpack, `--remove`), so each tarball carries the license without a second copy in the repository.
// Runs in the package's directory, as npm runs lifecycle scripts.
import { copyFileSync, rmSync } from 'node:fs';

if (process.argv[2] === '--remove') rmSync('LICENSE', { force: true });
else copyFileSync(new URL('../LICENSE', import.meta.url), 'LICENSE');
