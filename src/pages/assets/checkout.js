// codrail checkout (SPEC 13; issue 11). One script for both places a buyer orders:
// - a codrail landing page: it enhances the server-rendered form (mode 1, landing_page_id);
// - a merchant's own page: every <div data-codrail-checkout data-key data-store data-product>
//   gets the same form in a shadow root (styles isolated), read with the publishable key (mode 2).
// Without this script the landing's form still posts as a plain HTML form. No framework, no build.
(function () {
  'use strict';
  var script = document.currentScript;
  var base = script && script.src ? new URL(script.src).origin : location.origin;

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return 'k-' + Date.now().toString(36) + '-' + Math.random().toString(36).slice(2);
  }

  function $(root, selector) {
    return root.querySelector(selector);
  }

  /** The price of the chosen pack, as the order sends it. */
  function chosenPack(form, packs) {
    var input = $(form, 'input[name=pack]:checked');
    var code = input ? input.value : null;
    for (var i = 0; i < packs.length; i++) if (packs[i].code === code) return packs[i];
    return null;
  }

  function setError(form, name, message) {
    var slot = $(form, '#e-' + name);
    var input = form.elements[name];
    if (slot) slot.textContent = message || '';
    if (input && input.setAttribute && input.type !== 'radio') {
      if (message) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    }
  }

  function clearErrors(form) {
    var slots = form.querySelectorAll('.cr-err');
    for (var i = 0; i < slots.length; i++) slots[i].textContent = '';
    var invalid = form.querySelectorAll('[aria-invalid]');
    for (var j = 0; j < invalid.length; j++) invalid[j].removeAttribute('aria-invalid');
  }

  /** The server's limits, read from the attributes it rendered; a phone has 7 to 15 digits. */
  function check(form, text) {
    var bad = [];
    var names = ['nombre', 'telefono', 'departamento', 'ciudad', 'direccion', 'barrio', 'distrito', 'colonia', 'codigo_postal', 'referencia'];
    for (var i = 0; i < names.length; i++) {
      var el = form.elements[names[i]];
      if (!el) continue;
      var value = (el.value || '').trim();
      var min = Number(el.getAttribute('minlength') || 0);
      var max = Number(el.getAttribute('maxlength') || 1e9);
      var wrong = (el.required && value === '') || (value !== '' && (value.length < min || value.length > max));
      if (names[i] === 'telefono' && value !== '') {
        var digits = value.replace(/\D/g, '');
        if (digits.length < 7 || digits.length > 15) wrong = true;
      }
      if (wrong) bad.push(names[i]);
    }
    if (!$(form, 'input[name=pack]:checked')) bad.push('pack');
    return bad;
  }

  function message(text, field) {
    return (text.messages[field] || '').replace('{region}', text.regionLabel.toLowerCase());
  }

  /** Region → city: the official catalog's cities of the chosen region replace the free-text city. */
  function citySelector(form, text, country) {
    var region = form.elements.departamento;
    var cityInput = form.elements.ciudad;
    if (!region || !cityInput || region.tagName !== 'SELECT') return;
    fetch(base + '/api/geo/cities?country=' + encodeURIComponent(country))
      .then(function (res) {
        return res.ok ? res.json() : null;
      })
      .then(function (body) {
        if (!body || !body.data || !body.data.official) return;
        var regions = body.data.regions;
        var select = document.createElement('select');
        select.id = cityInput.id;
        select.name = 'ciudad';
        select.required = true;
        select.setAttribute('autocomplete', 'address-level2');
        select.setAttribute('aria-describedby', cityInput.getAttribute('aria-describedby'));
        function fill() {
          var keep = select.value || cityInput.value;
          select.textContent = '';
          var first = document.createElement('option');
          first.value = '';
          first.textContent = text.chooseCity;
          select.appendChild(first);
          var cities = regions[region.value] || [];
          for (var i = 0; i < cities.length; i++) {
            var option = document.createElement('option');
            option.textContent = cities[i];
            if (cities[i] === keep) option.selected = true;
            select.appendChild(option);
          }
          select.disabled = cities.length === 0;
        }
        fill();
        region.addEventListener('change', fill);
        cityInput.replaceWith(select);
      })
      .catch(function () {
        /* the free-text city stays: the server canonicalizes it */
      });
  }

  function confirmation(container, text, prefix, data, total) {
    var box = document.createElement('div');
    box.className = 'done';
    box.setAttribute('role', 'status');
    var h = document.createElement('h2');
    h.textContent = text.received;
    var label = document.createElement('p');
    label.className = 'muted';
    label.textContent = text.orderNumber;
    var number = document.createElement('p');
    number.className = 'number';
    number.setAttribute('data-order-number', '');
    number.textContent = prefix + data.order_number;
    var pay = document.createElement('p');
    pay.textContent = text.payOnDelivery.replace('{total}', total);
    var contact = document.createElement('p');
    contact.className = 'muted';
    contact.textContent = text.contact;
    box.append(h, label, number, pay, contact);
    container.replaceChildren(box);
    box.setAttribute('tabindex', '-1');
    box.focus();
  }

  /**
   * The behaviour of a rendered form: totals follow the chosen pack, fields are checked before
   * sending, the order is sent as JSON with one Idempotency-Key per attempt (a double tap or a retry
   * after a network error reuses it: one order), each refusal shows under its field.
   */
  function enhance(form, options) {
    var text = options.text;
    var busy = false;
    var attempt = null;
    var button = $(form, 'button[type=submit]');
    var banner = $(form, '[data-banner]');
    form.noValidate = true;
    citySelector(form, text, form.getAttribute('data-country'));

    form.addEventListener('change', function (event) {
      if (event.target.name === 'pack') {
        var pack = chosenPack(form, options.packs);
        var total = $(form, '[data-total]');
        if (pack && total) total.textContent = pack.priceText;
      }
      if (event.target.name) setError(form, event.target.name, '');
      attempt = null;
    });
    form.addEventListener('input', function () {
      attempt = null;
    });

    form.addEventListener('submit', function (event) {
      event.preventDefault();
      if (busy) return;
      clearErrors(form);
      banner.textContent = '';
      var bad = check(form, text);
      if (bad.length > 0) {
        for (var i = 0; i < bad.length; i++) setError(form, bad[i], message(text, bad[i]));
        banner.textContent = text.errorsTitle;
        var first = form.elements[bad[0]];
        if (first && first.focus) (first.length && !first.tagName ? first[0] : first).focus();
        return;
      }
      var pack = chosenPack(form, options.packs);
      var body = Object.assign({}, options.ids, { pack: pack.code, quantity: 1, unit_price: pack.price, total_price: pack.price });
      var names = ['nombre', 'telefono', 'departamento', 'ciudad', 'direccion', 'barrio', 'distrito', 'colonia', 'codigo_postal', 'referencia', 'website'];
      for (var j = 0; j < names.length; j++) {
        var el = form.elements[names[j]];
        if (el && el.value.trim() !== '') body[names[j]] = el.value.trim();
      }
      attempt = attempt || newKey();
      var headers = { 'content-type': 'application/json', 'idempotency-key': attempt };
      if (options.key) headers['x-svc-api-key'] = options.key;
      busy = true;
      button.disabled = true;
      button.textContent = text.sending;
      fetch(base + '/api/orders/create', { method: 'POST', headers: headers, body: JSON.stringify(body) })
        .then(function (res) {
          return res.json().then(function (json) {
            return { status: res.status, json: json, retryAfter: Number(res.headers.get('retry-after') || 0) };
          });
        })
        .then(function (answer) {
          if (answer.status === 200 && answer.json.success) {
            confirmation(options.container, text, options.prefix, answer.json.data, $(form, '[data-total]').textContent);
            return;
          }
          busy = false;
          button.disabled = false;
          button.textContent = text.submit;
          if (answer.status === 429) {
            var wait = answer.retryAfter || 60;
            banner.textContent = text.tooMany.replace('{s}', String(wait));
            button.disabled = true;
            setTimeout(function () {
              button.disabled = false;
            }, wait * 1000);
            return;
          }
          // A refused order changed nothing: the next try is a new attempt.
          attempt = null;
          var details = (answer.json && answer.json.details) || [];
          var shown = false;
          for (var k = 0; k < details.length; k++) {
            var field = details[k].field;
            if ($(form, '#e-' + field)) {
              setError(form, field, message(text, field));
              shown = true;
            } else if (text.messages[field]) banner.textContent = message(text, field);
          }
          if (!banner.textContent) banner.textContent = shown ? text.errorsTitle : text.rejected;
        })
        .catch(function () {
          // The outcome is unknown: the same attempt (same key) may be retried safely.
          busy = false;
          button.disabled = false;
          button.textContent = text.submit;
          banner.textContent = text.network;
        });
    });
  }

  function readPacks(form) {
    var radios = form.querySelectorAll('input[name=pack]');
    var packs = [];
    for (var i = 0; i < radios.length; i++)
      packs.push({ code: radios[i].value, price: Number(radios[i].getAttribute('data-price')), priceText: radios[i].getAttribute('data-price-text') });
    return packs;
  }

  /** Mode 1: the landing page's own form. */
  function landing() {
    var form = document.querySelector('form[data-codrail-form]');
    var data = document.getElementById('codrail-page');
    if (!form || !data) return;
    var page = JSON.parse(data.textContent);
    enhance(form, { text: page.text, packs: readPacks(form), ids: { landing_page_id: page.landing_page_id }, prefix: page.order_prefix, container: form.parentNode });
  }

  /** Mode 2: a merchant's page embeds the form with a publishable key. */
  function embed(host) {
    var key = host.getAttribute('data-key');
    var store = host.getAttribute('data-store');
    var product = host.getAttribute('data-product');
    var root = host.shadowRoot || host.attachShadow({ mode: 'open' });
    function fail() {
      root.textContent = '';
      var p = document.createElement('p');
      p.setAttribute('role', 'alert');
      p.textContent = 'El formulario de pedido no está disponible en este sitio.';
      root.appendChild(p);
    }
    fetch(base + '/api/checkout/products/' + encodeURIComponent(product || '') + '?store_id=' + encodeURIComponent(store || ''), { headers: { 'x-svc-api-key': key || '' } })
      .then(function (res) {
        return res.ok ? res.json() : null;
      })
      .then(function (body) {
        if (!body || !body.success) return fail();
        var view = body.data;
        var style = document.createElement('style');
        style.textContent = view.form.css;
        var holder = document.createElement('div');
        // The form markup comes from codrail's own template (escaped on the server), not from the host page.
        holder.innerHTML = view.form.html;
        root.replaceChildren(style, holder);
        var form = holder.querySelector('form');
        enhance(form, { text: view.form.text, packs: readPacks(form), ids: { store_id: store, product_id: product }, key: key, prefix: view.store.order_prefix, container: holder.firstChild });
      })
      .catch(fail);
  }

  function start() {
    landing();
    var hosts = document.querySelectorAll('[data-codrail-checkout]');
    for (var i = 0; i < hosts.length; i++) embed(hosts[i]);
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
