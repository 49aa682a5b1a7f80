// The app's only stylesheet and script, served from /app/assets/ (the Content-Security-Policy allows
// nothing inline). The script: copy buttons (`data-copy="<element id>"`, the text of that element to
// the clipboard, said in a live region) and confirmations (`form[data-confirm]` asks before sending).
// Every page works without it.

export const APP_JS = `'use strict';
(function () {
  function say(el, text) { if (el) el.textContent = text; }
  document.addEventListener('click', function (e) {
    var button = e.target.closest ? e.target.closest('button[data-copy]') : null;
    if (!button) return;
    var source = document.getElementById(button.getAttribute('data-copy'));
    var status = document.getElementById(button.getAttribute('data-status') || '');
    if (!source) return;
    var text = source.textContent.trim();
    function fallback() {
      var range = document.createRange();
      range.selectNodeContents(source);
      var sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      var ok = false;
      try { ok = document.execCommand('copy'); } catch (err) { ok = false; }
      say(status, ok ? 'Copied.' : 'Select the key and copy it.');
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { say(status, 'Copied.'); }, fallback);
    } else {
      fallback();
    }
  });
  document.addEventListener('submit', function (e) {
    var form = e.target;
    var question = form.getAttribute && form.getAttribute('data-confirm');
    if (question && !window.confirm(question)) e.preventDefault();
  });
})();
`;

export const APP_CSS = `
*, *::before, *::after { box-sizing: border-box; }
body { font-family: system-ui, -apple-system, Segoe UI, Roboto, sans-serif; margin: 0; background: #f6f7f9; color: #1c2430; font-size: 16px; line-height: 1.45; }
a { color: #14407a; }
.skip { position: absolute; left: -9999px; }
.skip:focus { left: 8px; top: 8px; background: #fff; padding: 8px; z-index: 10; }
.top { background: #14325c; color: #fff; }
.top a { color: #fff; }
.bar { max-width: 1100px; margin: 0 auto; padding: 12px 16px; display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; justify-content: space-between; }
.brand { margin: 0; font-weight: 700; font-size: 18px; }
.where { display: block; font-weight: 400; font-size: 14px; color: #dbe4f1; }
.signout { margin: 0; display: flex; align-items: center; gap: 8px; flex-wrap: wrap; font-size: 14px; }
.top button.link { background: transparent; border: 1px solid #dbe4f1; color: #fff; padding: 6px 10px; margin: 0; }
nav ul { list-style: none; margin: 0 auto; padding: 0 16px 10px; max-width: 1100px; display: flex; flex-wrap: wrap; gap: 4px 6px; }
nav a { display: inline-block; padding: 6px 10px; border-radius: 6px; text-decoration: none; }
nav a[aria-current="page"] { background: #fff; color: #14325c; font-weight: 600; }
main { max-width: 1100px; margin: 0 auto; padding: 20px 16px 64px; }
h1 { font-size: 24px; margin: 4px 0 16px; }
h2 { font-size: 18px; margin: 0 0 10px; }
section, .card { background: #fff; border: 1px solid #dde2ea; border-radius: 8px; padding: 16px; margin: 16px 0; }
label { display: block; font-size: 14px; margin: 10px 0 4px; font-weight: 600; }
label.choice { font-weight: 400; display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 6px 0; }
fieldset { border: 1px solid #dde2ea; border-radius: 6px; margin: 10px 0; padding: 8px 12px; }
legend { font-weight: 600; font-size: 14px; padding: 0 4px; }
input[type=text], input[type=email], input[type=date], input:not([type]), select { width: 100%; max-width: 420px; padding: 8px; border: 1px solid #8a96a8; border-radius: 6px; font-size: 16px; }
.scopes { display: grid; grid-template-columns: repeat(auto-fill, minmax(180px, 1fr)); gap: 0 12px; }
button { background: #14325c; color: #fff; border: 0; border-radius: 6px; padding: 9px 14px; font-size: 15px; cursor: pointer; margin-top: 12px; }
button.secondary { background: #fff; color: #14325c; border: 1px solid #14325c; }
button.danger { background: #a4161a; }
td button, td form { margin: 0; }
.inline { display: inline-flex; flex-wrap: wrap; gap: 6px; align-items: center; margin: 0; }
.inline select { width: auto; }
.inline button { margin: 0; }
table { width: 100%; border-collapse: collapse; font-size: 14px; }
th, td { text-align: left; padding: 8px 6px; border-bottom: 1px solid #e4e8ee; vertical-align: top; overflow-wrap: anywhere; }
th { font-size: 13px; color: #3d4857; }
code, .secret { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.secret { display: block; word-break: break-all; background: #f1f4f8; border: 1px solid #c9d1dc; border-radius: 6px; padding: 10px; font-size: 15px; margin: 8px 0; }
.notice { background: #e8f4ec; border: 1px solid #9fd0b0; color: #17582f; border-radius: 6px; padding: 10px 12px; }
.error { background: #fbeaea; border: 1px solid #e3a3a5; color: #8a1216; border-radius: 6px; padding: 10px 12px; }
.muted { color: #4f5a6a; font-size: 14px; }
.badge { display: inline-block; font-size: 12px; padding: 1px 8px; border-radius: 10px; background: #e6ebf2; color: #1c2430; }
.badge.off { background: #fbeaea; color: #8a1216; }
.badge.test { background: #fff3cd; color: #5c4400; }
.stack { max-width: 460px; }
@media (max-width: 640px) {
  table.rows, table.rows tbody, table.rows tr, table.rows td { display: block; width: 100%; }
  table.rows thead { position: absolute; left: -9999px; }
  table.rows tr { border: 1px solid #dde2ea; border-radius: 8px; margin: 10px 0; padding: 6px 10px; background: #fff; }
  table.rows td { border: 0; padding: 4px 0; }
  table.rows td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; color: #3d4857; }
  h1 { font-size: 21px; }
}
/* Webhooks, Mailbox and Replies to review (src/web/app/ops). */
.wrap { overflow-wrap: anywhere; }
.lead { max-width: 760px; }
.hint { color: #4f5a6a; font-size: 14px; margin: 2px 0 4px; }
.state { padding: 8px 10px; border-radius: 6px; margin: 8px 0; }
.state.ok { background: #e8f4ec; color: #17582f; }
.state.warn, .warn { background: #fff4dc; color: #6b4a00; }
.state.bad { background: #fbeaea; color: #8a1216; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 12px; margin: 8px 0; font-size: 15px; }
.facts dt { font-weight: 600; color: #3d4857; }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.actions { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-top: 10px; }
.actions form, .actions button { margin: 0; }
a.button { display: inline-block; padding: 8px 13px; border: 1px solid #14325c; border-radius: 6px; color: #14325c; text-decoration: none; font-size: 15px; background: #fff; }
ul.plain { list-style: none; padding: 0; margin: 0; }
li.delivery { border-top: 1px solid #e4e8ee; padding: 10px 0; }
li.delivery p { margin: 2px 0; }
pre.message { white-space: pre-wrap; overflow-wrap: anywhere; background: #f6f7f9; border: 1px solid #e4e8ee; border-radius: 6px; padding: 10px; font-size: 14px; max-height: 320px; overflow: auto; }
details { margin: 8px 0; }
summary { cursor: pointer; color: #14407a; }
input[type=password], input[type=number], textarea { width: 100%; max-width: 420px; padding: 8px; border: 1px solid #8a96a8; border-radius: 6px; font-size: 16px; font-family: inherit; }
textarea { max-width: 640px; }
form.assign, form.dismiss { border-top: 1px solid #e4e8ee; margin-top: 12px; padding-top: 4px; }
h3 { font-size: 16px; margin: 12px 0 4px; }
.offer-fields .row { display: grid; grid-template-columns: repeat(auto-fit, minmax(140px, 1fr)); gap: 0 12px; }
.offer-fields input, .offer-fields select { max-width: none; }
label.choice.option { flex-wrap: nowrap; align-items: flex-start; }
label.choice.option input { flex: none; margin-top: 4px; }
@media (max-width: 640px) {
  .facts { grid-template-columns: 1fr; }
  .facts dd { margin-bottom: 6px; }
}
`;

