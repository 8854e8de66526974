// Enables the sign-up button while the widget holds a valid token.
const form = document.getElementById('signup');
const submit = document.getElementById('submit');
const hint = document.getElementById('hint');

function setReady(ready) {
  submit.disabled = !ready;
  hint.textContent = ready ? 'Verified: you can sign up.' : 'Solve the maze to enable the button.';
}

form.addEventListener('ariadne-verified', () => setReady(true));
form.addEventListener('ariadne-expired', () => setReady(false));
form.addEventListener('ariadne-error', (event) => {
  setReady(false);
  // A sites file that does not list the demo's site key: say what to add, not just "try again".
  if (event.detail && event.detail.code === 'unknown_site_key') {
    hint.textContent = 'This server\u2019s SITES_FILE has no site "demo", so the demo cannot pass here: add a site "demo" listing this page\u2019s hostname (docs/operating.md, "The demo").';
  }
});
