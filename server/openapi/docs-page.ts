// The /docs page: Swagger UI from the app's own copy of swagger-ui-dist, loading /openapi.json.
// No CDN, no validator badge (that would call validator.swagger.io), Token auth prefilled from
// the web UI's token when there is one.

export const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>netinv API docs</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
  <style>body { margin: 0 } .topbar-note { font: 14px sans-serif; padding: 8px 20px; background: #1b1b1b; color: #eee }
  .topbar-note a { color: #9cf }</style>
</head>
<body>
  <div class="topbar-note">netinv API — <a href="/openapi.json">openapi.json</a> · <a href="/ui/">web UI</a></div>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

export const DOCS_INIT_JS = `// Swagger UI set-up for netinv (served by the app, no external URL).
(function () {
  var TOKEN_KEY = 'netinv.token';
  var withPrefix = function (v) { return /^(Token|Bearer)\\s/i.test(v) ? v : 'Token ' + v; };
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    tryItOutEnabled: false,
    persistAuthorization: true,
    displayRequestDuration: true,
    // Tags open collapsed (the lifecycle ones are opened below): Swagger UI 5 stops rendering past
    // about 130 expanded operations, and the inventory alone has more. The filter box finds a tag.
    docExpansion: 'none',
    filter: true,
    defaultModelsExpandDepth: 0,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'BaseLayout',
    requestInterceptor: function (req) {
      var h = req.headers || {};
      if (h.Authorization) h.Authorization = withPrefix(String(h.Authorization).trim());
      return req;
    },
    onComplete: function () {
      ['lifecycle/machines', 'lifecycle/entities'].forEach(function (tag) {
        window.ui.layoutActions.show(['operations-tag', tag], true);
      });
      var saved = null;
      try { saved = window.localStorage.getItem(TOKEN_KEY); } catch (e) { /* storage disabled */ }
      if (saved) window.ui.preauthorizeApiKey('Token', withPrefix(saved));
    },
  });
})();
`;
