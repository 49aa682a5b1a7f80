// The portal's only script and stylesheet, served from this origin (the Content-Security-Policy
// allows nothing inline). The script uploads a chosen file straight to storage: it asks the portal
// for a presigned URL, PUTs the bytes there, then asks the portal to finalize.

export const PORTAL_JS = `'use strict';
(function () {
  var form = document.getElementById('upload-form');
  if (!form) return;
  var csrf = document.querySelector('meta[name="csrf-token"]').getAttribute('content');
  var status = document.getElementById('upload-status');
  function say(text, bad) { status.textContent = text; status.className = bad ? 'status bad' : 'status'; }
  function post(path, body) {
    return fetch(path, { method: 'POST', credentials: 'same-origin', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf }, body: JSON.stringify(body || {}) })
      .then(function (r) { return r.json().then(function (j) { if (!r.ok) throw new Error((j.error && j.error.message) || 'The upload failed'); return j; }); });
  }
  form.addEventListener('submit', function (e) {
    e.preventDefault();
    var input = document.getElementById('file');
    var file = input.files && input.files[0];
    if (!file) { say('Choose a file first', true); return; }
    var category = document.getElementById('category').value;
    var button = form.querySelector('button');
    button.disabled = true;
    say('Uploading ' + file.name + '...');
    post('/portal/uploads', { filename: file.name, content_type: file.type || 'application/octet-stream', size_bytes: file.size, category: category })
      .then(function (slot) {
        return fetch(slot.upload_url, { method: 'PUT', headers: slot.upload_headers, body: file }).then(function (r) {
          if (!r.ok) throw new Error('The file could not be stored (HTTP ' + r.status + ')');
          return post('/portal/uploads/' + encodeURIComponent(slot.document_id) + '/finalize');
        });
      })
      .then(function () { say('Uploaded ' + file.name); window.location.reload(); })
      .catch(function (err) { say(err.message, true); button.disabled = false; });
  });
})();
`;

export const PORTAL_CSS = `
body { font-family: system-ui, -apple-system, Segoe UI, Roboto, sans-serif; margin: 0; background: #f6f7f9; color: #1c2430; }
main { max-width: 720px; margin: 0 auto; padding: 24px 16px 64px; }
header { background: #14325c; color: #fff; padding: 16px; }
header h1 { font-size: 20px; margin: 0 auto; max-width: 720px; }
section { background: #fff; border: 1px solid #dde2ea; border-radius: 8px; padding: 16px 20px; margin: 16px 0; }
h2 { font-size: 17px; margin-top: 0; }
label { display: block; font-size: 14px; margin: 10px 0 4px; }
input, select { width: 100%; box-sizing: border-box; padding: 8px; border: 1px solid #b9c2cf; border-radius: 6px; font-size: 15px; }
button { margin-top: 14px; background: #14325c; color: #fff; border: 0; border-radius: 6px; padding: 10px 16px; font-size: 15px; cursor: pointer; }
button:disabled { opacity: .6; }
button.secondary { background: #fff; color: #14325c; border: 1px solid #14325c; }
.actions { display: flex; gap: 12px; flex-wrap: wrap; }
label.scope { display: flex; align-items: flex-start; gap: 10px; margin: 8px 0; line-height: 1.4; }
label.scope input { width: auto; flex: none; margin: 3px 0 0; }
fieldset { border: 1px solid #dde2ea; border-radius: 6px; }
table { width: 100%; border-collapse: collapse; font-size: 14px; }
td, th { text-align: left; padding: 6px 4px; border-bottom: 1px solid #eef1f5; vertical-align: top; }
.status { margin-top: 10px; font-size: 14px; }
.bad, .error { color: #a4161a; }
.ok { color: #1b6e3a; }
.muted { color: #5b6676; font-size: 13px; }
.offer { border: 1px solid #dde2ea; border-radius: 8px; padding: 12px; margin: 10px 0; }
.chosen { border-color: #1b6e3a; background: #f1faf4; }
`;
