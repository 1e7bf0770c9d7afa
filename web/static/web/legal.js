// Controls built generically from `legal_actions`: one form per entry, one control per
// parameter domain ({"one_of"}, {"subset_of", "min", "max"}, {"range": [lo, hi]}). A rule
// change on the server needs no change here; the game modules only say how a value looks and
// put an entry, a parameter and a finished choice in a player's words (the API's label and
// the parameter's name are the fallback).

import { h } from "./dom.js";

const BUTTONS_UP_TO = 30; // a lone one_of/range with this many values or fewer: one button each

function valueKey(value) {
  return JSON.stringify(value);
}

// Does `action` ({"type", ...params}) fit one of the entries? The same test the server makes:
// a value from every domain of one entry, and nothing else.
export function fits(action, legal) {
  const { type, ...values } = action;
  return (legal || []).some((entry) => {
    if (entry.type !== type) return false;
    const params = entry.params || {};
    if (Object.keys(values).some((name) => !(name in params))) return false;
    return Object.entries(params).every(([name, domain]) => {
      if (!(name in values)) return false;
      const value = values[name];
      if (domain.one_of) return domain.one_of.some((v) => valueKey(v) === valueKey(value));
      if (domain.range) return Number.isInteger(value) && value >= domain.range[0] && value <= domain.range[1];
      if (domain.subset_of) {
        if (!Array.isArray(value) || value.length < domain.min || value.length > domain.max) return false;
        const keys = value.map(valueKey);
        const allowed = new Set(domain.subset_of.map(valueKey));
        return new Set(keys).size === keys.length && keys.every((k) => allowed.has(k));
      }
      return false;
    });
  });
}

function humanize(name) {
  return name.replaceAll("_", " ");
}

// One legal-action entry as a form. `words.look(type, param, value)` renders a value (a card, a
// die, a seat name...), `words.entry(entry)` is the entry's heading, `words.param(entry, name)`
// a parameter's, `words.choice(entry, action)` the button's once every value is chosen;
// `submit(action)` posts it.
function entryForm(entry, words, submit, memory) {
  const look = words.look;
  const params = Object.entries(entry.params || {});
  const entryKey = JSON.stringify(entry); // a choice half made survives a redraw of the same entry
  const remember = (name, value) => memory.set(`${entryKey}|${name}`, value);
  const recall = (name) => memory.get(`${entryKey}|${name}`);
  const form = h("form", { class: "action", "data-action": entry.type });
  const heading = words.entry(entry) || entry.label;
  const paramWords = (name) => words.param(entry, name) || humanize(name);
  const label = h("p", { class: "action-label" }, heading);
  form.appendChild(label);
  const send = (action) => submit(action);

  if (params.length === 0) {
    form.appendChild(h("button", { type: "submit", class: "act primary" }, words.choice(entry, { type: entry.type }) || heading));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      send({ type: entry.type });
    });
    label.hidden = true;
    return form;
  }

  if (params.length === 1) {
    const [name, domain] = params[0];
    let values = null;
    if (domain.one_of && domain.one_of.length <= BUTTONS_UP_TO) values = domain.one_of;
    if (domain.range && domain.range[1] - domain.range[0] < BUTTONS_UP_TO) {
      values = [];
      for (let v = domain.range[0]; v <= domain.range[1]; v++) values.push(v);
    }
    if (values) {
      const group = h("div", { class: "choices", role: "group", "aria-label": heading });
      for (const value of values) {
        group.appendChild(
          h(
            "button",
            {
              type: "button",
              class: "choice act",
              "data-param": name,
              "data-value": valueKey(value),
              onclick: () => send({ type: entry.type, [name]: value }),
            },
            look(entry.type, name, value),
          ),
        );
      }
      form.appendChild(group);
      form.addEventListener("submit", (event) => event.preventDefault());
      return form;
    }
  }

  // The general case: a control per parameter, then one submit button.
  const readers = [];
  const button = h("button", { type: "submit", class: "act primary", disabled: true }, heading);
  const refresh = () => {
    const ready = readers.every((reader) => reader.valid());
    button.disabled = !ready;
    const action = { type: entry.type };
    if (ready) for (const reader of readers) action[reader.name] = reader.value();
    button.textContent = (ready && words.choice(entry, action)) || heading;
  };
  for (const [name, domain] of params) {
    const field = h("div", { class: "param", "data-param": name });
    if (domain.subset_of) {
      const chosen = new Set(recall(name) || []);
      const { min, max } = domain;
      const hint = h(
        "span",
        { class: "hint" },
        min === max ? `pick ${min}` : `pick ${min} to ${max}`,
      );
      const group = h("div", { class: "picks", role: "group", "aria-label": `${paramWords(name)}: ${hint.textContent}`, "data-min": min, "data-max": max });
      const toggles = domain.subset_of.map((value) => {
        const key = valueKey(value);
        const toggle = h(
          "button",
          {
            type: "button",
            class: "pick",
            "aria-pressed": String(chosen.has(key)),
            "data-value": key,
            onclick: () => {
              if (chosen.has(key)) chosen.delete(key);
              else {
                if (max === 1) chosen.clear();
                if (chosen.size >= max) return;
                chosen.add(key);
              }
              for (const t of toggles) t.setAttribute("aria-pressed", String(chosen.has(t.dataset.value)));
              remember(name, [...chosen]);
              refresh();
            },
          },
          look(entry.type, name, value),
        );
        return toggle;
      });
      group.append(...toggles);
      field.append(h("span", { class: "param-name" }, paramWords(name), " "), hint, group);
      readers.push({
        name,
        valid: () => chosen.size >= min && chosen.size <= max,
        value: () => domain.subset_of.filter((v) => chosen.has(valueKey(v))),
      });
    } else if (domain.one_of) {
      const id = `p-${entry.type}-${name}-${entryKey.length}`;
      const select = h(
        "select",
        { id, "data-param": name, onchange: () => { remember(name, select.value); refresh(); } },
        domain.one_of.map((value, i) =>
          h("option", { value: String(i) }, String(look(entry.type, name, value, true))),
        ),
      );
      if (recall(name) !== undefined) select.value = recall(name);
      field.append(h("label", { for: id, class: "param-name" }, paramWords(name)), " ", select);
      readers.push({ name, valid: () => select.value !== "", value: () => domain.one_of[Number(select.value)] });
    } else if (domain.range) {
      const [lo, hi] = domain.range;
      const id = `p-${entry.type}-${name}-${entryKey.length}`;
      const input = h("input", {
        id, type: "number", min: lo, max: hi, step: 1, value: recall(name) ?? lo,
        oninput: () => { remember(name, input.value); refresh(); },
      });
      field.append(h("label", { for: id, class: "param-name" }, `${paramWords(name)} (${lo}–${hi})`), " ", input);
      readers.push({
        name,
        valid: () => Number.isInteger(Number(input.value)) && input.value !== "" && +input.value >= lo && +input.value <= hi,
        value: () => Number(input.value),
      });
    } else {
      field.append(h("span", { class: "error" }, `unknown domain for ${name}`));
      readers.push({ name, valid: () => false, value: () => null });
    }
    form.appendChild(field);
  }
  form.appendChild(button);
  refresh();
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (button.disabled) return;
    const action = { type: entry.type };
    for (const reader of readers) action[reader.name] = reader.value();
    send(action);
  });
  return form;
}

// The whole panel. While a post is in flight every control is disabled.
export function actionPanel(legal, { look, words = {}, submit, memory = new Map() }) {
  const all = {
    look: look || words.look || ((type, param, value) => String(value)),
    entry: words.entry || (() => null),
    param: words.param || (() => null),
    choice: words.choice || (() => null),
  };
  const panel = h("div", { class: "actions", "data-count": legal.length });
  const run = async (action) => {
    memory.clear();
    for (const control of panel.querySelectorAll("button, select, input")) control.disabled = true;
    panel.classList.add("busy");
    try {
      await submit(action);
    } finally {
      panel.classList.remove("busy");
    }
  };
  for (const entry of legal) panel.appendChild(entryForm(entry, all, run, memory));
  return panel;
}
