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
    // The control the buyer sees (the city combobox's input carries no name: its hidden twin is sent).
    var input = $(form, '#f-' + name) || form.elements[name];
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

  /** Case, accents and punctuation folded away: what the city search compares. */
  function fold(s) {
    return String(s)
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  }

  var ARTICLE = /^(?:el|la|los|las) /;

  /** Edit distance with transpositions (optimal string alignment), for typos in the city search. */
  function distance(a, b) {
    var prev2 = [];
    var prev = [];
    for (var j = 0; j <= b.length; j++) prev[j] = j;
    for (var i = 1; i <= a.length; i++) {
      var row = [i];
      for (var k = 1; k <= b.length; k++) {
        var cost = a[i - 1] === b[k - 1] ? 0 : 1;
        row[k] = Math.min(prev[k] + 1, row[k - 1] + 1, prev[k - 1] + cost);
        if (i > 1 && k > 1 && a[i - 1] === b[k - 2] && a[i - 2] === b[k - 1]) row[k] = Math.min(row[k], prev2[k - 2] + 1);
      }
      prev2 = prev;
      prev = row;
    }
    return prev[b.length];
  }

  /** How well a folded name answers a folded query: whole name, its start, a word's start, inside it, then a typo away. */
  function score(key, q) {
    if (key === q) return 100;
    if (key.indexOf(q) === 0) return 90;
    if ((' ' + key).indexOf(' ' + q) >= 0) return 75;
    if (q.length >= 3 && key.indexOf(q) >= 0) return 55;
    if (q.length < 3) return 0;
    var allowed = q.length >= 7 ? 2 : 1;
    var words = key.split(' ');
    var best = 9;
    for (var w = 0; w < words.length; w++) {
      var rest = words.slice(w).join(' ');
      for (var n = q.length - 1; n <= q.length + 1; n++) if (n > 0 && rest.length >= n) best = Math.min(best, distance(q, rest.slice(0, n)));
    }
    return best <= allowed ? 40 - best * 10 : 0;
  }

  /**
   * Region → city (issue 23 §1): the free-text city becomes an ARIA combobox (list autocomplete)
   * over the official catalog, each city shown by the name buyers use and found by that, its official
   * name or an alias, accent-, case- and typo-tolerant. The catalog's name is what the form sends (a
   * hidden field); text that matches nothing is sent as typed and the server canonicalizes it.
   * Without the catalog (no network, a country without one) the free-text field stays.
   */
  function cityCombobox(form, text, country) {
    var region = form.elements.departamento;
    var input = form.elements.ciudad;
    if (!region || !input || region.tagName !== 'SELECT') return;
    var started = false;
    // Fetched when the form comes near or is used, not with the page: the first screen loads nothing it does not show.
    function start() {
      if (started) return;
      started = true;
      fetch(base + '/api/geo/cities?names=1&country=' + encodeURIComponent(country))
        .then(function (res) {
          return res.ok ? res.json() : null;
        })
        .then(function (body) {
          if (body && body.data && body.data.official) combobox(form, text, region, input, body.data);
        })
        .catch(function () {
          /* the free-text city stays: the server canonicalizes it */
        });
    }
    form.addEventListener('focusin', start);
    if (!window.IntersectionObserver) return start();
    var near = new IntersectionObserver(
      function (changes) {
        if (!changes.some(function (c) { return c.isIntersecting; })) return;
        near.disconnect();
        start();
      },
      { rootMargin: '1000px 0px' },
    );
    near.observe(input);
  }

  var comboboxes = 0;

  function combobox(form, text, region, input, data) {
    var collator = new Intl.Collator('es', { sensitivity: 'base' });
    var common = (data.names && data.names.common) || {};
    var aliases = (data.names && data.names.aliases) || {};
    var entries = [];
    Object.keys(data.regions).forEach(function (r) {
      data.regions[r].forEach(function (city) {
        var label = (common[r] && common[r][city]) || city;
        var keys = [fold(label), fold(city)].concat(((aliases[r] && aliases[r][city]) || []).map(fold));
        // "El Espinal" finds Espinal and "Retiro" finds El Retiro: a leading article is optional.
        keys.forEach(function (k) {
          var bare = k.replace(ARTICLE, '');
          if (bare !== k && keys.indexOf(bare) < 0) keys.push(bare);
        });
        entries.push({ region: r, city: city, label: label, keys: keys });
      });
    });
    entries.sort(function (a, b) {
      return collator.compare(a.label, b.label) || collator.compare(a.region, b.region);
    });

    var id = 'cr-cities-' + ++comboboxes;
    var hidden = document.createElement('input');
    hidden.type = 'hidden';
    hidden.name = 'ciudad';
    hidden.required = true;
    hidden.setAttribute('minlength', input.getAttribute('minlength') || '0');
    hidden.setAttribute('maxlength', input.getAttribute('maxlength') || '200');
    hidden.value = input.value;
    input.removeAttribute('name');
    input.setAttribute('role', 'combobox');
    input.setAttribute('aria-autocomplete', 'list');
    input.setAttribute('aria-expanded', 'false');
    input.setAttribute('aria-controls', id);
    input.setAttribute('autocomplete', 'off');
    input.setAttribute('placeholder', text.cityHint);
    var list = document.createElement('ul');
    list.id = id;
    list.className = 'cb-list';
    list.setAttribute('role', 'listbox');
    list.setAttribute('aria-label', text.cities);
    list.hidden = true;
    var status = document.createElement('p');
    status.className = 'sr';
    status.setAttribute('role', 'status');
    var wrap = document.createElement('div');
    wrap.className = 'cb';
    input.parentNode.insertBefore(wrap, input);
    wrap.append(input, list, hidden, status);

    var shown = [];
    var active = -1;
    var chosen = null;

    function matches() {
      var q = fold(input.value);
      var bareQ = q.replace(ARTICLE, '');
      var pool = region.value ? entries.filter(function (e) { return e.region === region.value; }) : entries;
      if (q === '') return region.value ? pool.slice(0, 80) : [];
      var found = [];
      for (var i = 0; i < pool.length; i++) {
        var best = 0;
        for (var k = 0; k < pool[i].keys.length; k++) {
          var key = pool[i].keys[k];
          best = Math.max(best, score(key, q) - (k > 0 ? 1 : 0), bareQ !== q ? score(key, bareQ) - 2 : 0);
        }
        if (best > 0) found.push({ entry: pool[i], score: best });
      }
      found.sort(function (a, b) {
        return b.score - a.score || collator.compare(a.entry.label, b.entry.label);
      });
      return found.slice(0, 40).map(function (f) { return f.entry; });
    }

    function setActive(i) {
      var items = list.children;
      if (active >= 0 && items[active]) items[active].setAttribute('aria-selected', 'false');
      active = i;
      if (i >= 0 && items[i] && shown.length > 0) {
        items[i].setAttribute('aria-selected', 'true');
        input.setAttribute('aria-activedescendant', items[i].id);
        if (items[i].scrollIntoView) items[i].scrollIntoView({ block: 'nearest' });
      } else input.removeAttribute('aria-activedescendant');
    }

    function open() {
      shown = matches();
      list.textContent = '';
      active = -1;
      input.removeAttribute('aria-activedescendant');
      if (shown.length === 0 && fold(input.value) === '') return close();
      shown.forEach(function (e, i) {
        var li = document.createElement('li');
        li.id = id + '-' + i;
        li.setAttribute('role', 'option');
        li.setAttribute('aria-selected', 'false');
        li.textContent = e.label;
        var extra = [e.label !== e.city ? e.city : '', region.value ? '' : e.region].filter(Boolean).join(' · ');
        if (extra) {
          var small = document.createElement('small');
          small.textContent = extra;
          li.appendChild(small);
        }
        list.appendChild(li);
      });
      if (shown.length === 0) {
        var none = document.createElement('li');
        none.className = 'none';
        none.textContent = text.cityNone;
        list.appendChild(none);
      }
      list.hidden = false;
      input.setAttribute('aria-expanded', 'true');
      status.textContent = shown.length === 1 ? text.cityOne : text.cityCount.replace('{n}', String(shown.length));
    }

    function close() {
      list.hidden = true;
      input.setAttribute('aria-expanded', 'false');
      input.removeAttribute('aria-activedescendant');
      active = -1;
    }

    function choose(e) {
      chosen = e;
      input.value = e.label;
      hidden.value = e.city;
      if (region.value !== e.region) {
        region.value = e.region;
        region.dispatchEvent(new Event('change', { bubbles: true }));
      }
      close();
      setError(form, 'ciudad', '');
      settle(form, text);
    }

    /** Typed text that is exactly one city's name (or alias) in the region is that city. */
    function settleTyped() {
      if (chosen || fold(input.value) === '') return;
      var q = fold(input.value);
      var exact = matches().filter(function (e) { return e.keys.indexOf(q) >= 0; });
      if (exact.length === 1) choose(exact[0]);
    }

    input.addEventListener('input', function () {
      chosen = null;
      hidden.value = input.value.trim();
      open();
    });
    input.addEventListener('focus', function () {
      if (!chosen) open();
    });
    input.addEventListener('keydown', function (event) {
      var key = event.key;
      if (key === 'ArrowDown' || key === 'ArrowUp') {
        event.preventDefault();
        if (list.hidden) open();
        if (shown.length === 0) return;
        var next = key === 'ArrowDown' ? (active + 1) % shown.length : (active <= 0 ? shown.length : active) - 1;
        setActive(next);
      } else if (key === 'Enter') {
        if (!list.hidden && active >= 0 && shown[active]) {
          event.preventDefault();
          choose(shown[active]);
        } else if (!list.hidden && shown.length === 1) {
          event.preventDefault();
          choose(shown[0]);
        }
      } else if (key === 'Escape') {
        if (!list.hidden) {
          event.preventDefault();
          close();
        }
      } else if (key === 'Tab') {
        if (!list.hidden && active >= 0 && shown[active]) choose(shown[active]);
        else settleTyped();
        close();
      }
    });
    input.addEventListener('blur', function () {
      settleTyped();
      close();
    });
    // A tap on an option must not blur the input first.
    list.addEventListener('mousedown', function (event) {
      event.preventDefault();
    });
    list.addEventListener('click', function (event) {
      var li = event.target.closest ? event.target.closest('[role=option]') : null;
      if (li) choose(shown[Number(li.id.slice(id.length + 1))]);
    });
    region.addEventListener('change', function () {
      if (chosen && chosen.region !== region.value) {
        chosen = null;
        input.value = '';
        hidden.value = '';
      }
    });
    // Text typed before the catalog arrived: a buyer still typing gets the list, autofilled text is settled.
    if (input.getRootNode().activeElement === input) open();
    else if (input.value) settleTyped();
  }

  /** Once every field is right again, the "check the marked fields" banner goes too. */
  function settle(form, text) {
    var banner = $(form, '[data-banner]');
    if (!banner || banner.textContent !== text.errorsTitle) return;
    var slots = form.querySelectorAll('.cr-err');
    for (var i = 0; i < slots.length; i++) if (slots[i].textContent) return;
    banner.textContent = '';
  }

  function el(tag, className, content) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (content !== undefined) node.textContent = content;
    return node;
  }

  /**
   * The confirmation (issue 23 §4), the same as the page without script: the number, what was
   * ordered, the address as it will be shipped (the stored city and region), what happens next, and
   * the store's WhatsApp.
   */
  function confirmation(container, text, prefix, data, form, pack) {
    var number = prefix + data.order_number;
    var name = (form.elements.nombre.value || '').trim().split(' ')[0];
    var done = el('div', 'done');
    done.setAttribute('role', 'status');
    var numberLine = el('p', 'number', number);
    numberLine.setAttribute('data-order-number', '');
    done.append(el('h2', '', text.thanks.replace('{name}', name)), el('p', '', text.received), el('p', 'muted', text.orderNumber), numberLine);
    var recap = el('div', 'recap');
    var what = el('p');
    what.setAttribute('data-recap-product', '');
    what.append(el('strong', '', text.product), ' · ' + (pack.units || ''));
    var total = el('p', 'total');
    total.append(el('span', '', text.total), el('span', '', pack.priceText));
    var address = el('p');
    address.setAttribute('data-recap-address', '');
    var barrio = form.elements.barrio ? form.elements.barrio.value.trim() : '';
    [form.elements.direccion.value.trim(), barrio, data.ciudad + ', ' + data.departamento].filter(Boolean).forEach(function (line, i) {
      if (i > 0) address.appendChild(document.createElement('br'));
      address.append(line);
    });
    var steps = el('ol', 'steps');
    text.steps.forEach(function (step) {
      steps.appendChild(el('li', '', step.replace('{total}', pack.priceText)));
    });
    recap.append(el('h3', '', text.yourOrder), what, total, el('h3', '', text.shipTo), address, el('h3', '', text.next), steps);
    if (text.whatsappOrder) {
      var wa = el('a', 'cta wa-cta', text.questions);
      wa.href = text.whatsappOrder.replace('%7Bn%7D', encodeURIComponent(number));
      wa.rel = 'noopener';
      recap.appendChild(wa);
    }
    container.replaceChildren(done, recap);
    done.setAttribute('tabindex', '-1');
    done.focus();
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
    cityCombobox(form, text, form.getAttribute('data-country'));

    form.addEventListener('change', function (event) {
      if (event.target.name === 'pack') {
        var pack = chosenPack(form, options.packs);
        var total = $(form, '[data-total]');
        if (pack && total) total.textContent = pack.priceText;
        if (pack && options.onPack) options.onPack(pack);
      }
      if (event.target.name) setError(form, event.target.name, '');
      settle(form, text);
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
            confirmation(options.container, text, options.prefix, answer.json.data, form, pack);
            if (options.onDone) options.onDone();
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
          // The key or this site's origin was refused: no retry helps, and it is no network problem.
          if (answer.status === 401 || answer.status === 403) {
            banner.textContent = text.unavailable;
            return;
          }
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
      packs.push({ code: radios[i].value, price: Number(radios[i].getAttribute('data-price')), priceText: radios[i].getAttribute('data-price-text'), units: radios[i].getAttribute('data-units') });
    return packs;
  }

  /**
   * The landing's order buttons (issue 23 §2): "Pedir ahora" chooses its pack and takes the buyer to
   * the form; the slim bar at the bottom follows the chosen pack and steps aside while another order
   * button is on screen or the buyer is typing.
   */
  function orderButtons(form, packs) {
    var bar = document.querySelector('[data-bar]');
    var links = document.querySelectorAll('[data-order-now]');
    for (var i = 0; i < links.length; i++)
      links[i].addEventListener('click', function (event) {
        var code = event.currentTarget.getAttribute('data-pack');
        var radio = code && $(form, 'input[name=pack][value="' + code + '"]');
        if (radio && !radio.checked) {
          radio.checked = true;
          radio.dispatchEvent(new Event('change', { bubbles: true }));
        }
        var title = $(form, 'h2');
        if (title) {
          title.setAttribute('tabindex', '-1');
          setTimeout(function () {
            title.focus({ preventScroll: true });
          }, 0);
        }
      });
    if (!bar || !window.IntersectionObserver) return;
    var visible = new Set();
    var typing = false;
    function update() {
      bar.classList.toggle('away', typing || visible.size > 0);
    }
    var observer = new IntersectionObserver(function (changes) {
      changes.forEach(function (c) {
        if (c.isIntersecting) visible.add(c.target);
        else visible.delete(c.target);
      });
      update();
    });
    var first = document.querySelector('.buy [data-order-now]');
    if (first) observer.observe(first);
    observer.observe($(form, 'button[type=submit]'));
    form.addEventListener('focusin', function (event) {
      typing = event.target.tagName === 'INPUT' && event.target.type !== 'radio';
      update();
    });
    form.addEventListener('focusout', function () {
      typing = false;
      update();
    });
    return {
      pack: function (pack) {
        var price = bar.querySelector('[data-bar-price]');
        var units = bar.querySelector('[data-bar-units]');
        if (price) price.textContent = pack.priceText;
        if (units) units.textContent = pack.units || '';
      },
      done: function () {
        bar.remove();
      },
    };
  }

  /** Mode 1: the landing page's own form. */
  function landing() {
    var form = document.querySelector('form[data-codrail-form]');
    var data = document.getElementById('codrail-page');
    if (!form || !data) return;
    var page = JSON.parse(data.textContent);
    var packs = readPacks(form);
    var buttons = orderButtons(form, packs);
    enhance(form, {
      text: page.text,
      packs: packs,
      ids: { landing_page_id: page.landing_page_id },
      prefix: page.order_prefix,
      container: form.parentNode,
      onPack: buttons && buttons.pack,
      onDone: buttons && buttons.done,
    });
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
