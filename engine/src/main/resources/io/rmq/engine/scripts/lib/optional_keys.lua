-- The optional keys of a script, from KEYS[first] on, by their name before the hash tag: since{...} is
-- found.since, tenants{...} found.tenants, and so on. Features that each add keys (priority aging, fair share,
-- limits per key) can then be given in any combination and order.
local function optionalKeys(first)
  local found = {}
  for i = first, #KEYS do
    local name = string.match(KEYS[i], '^([^{]*){')
    if name then found[name] = KEYS[i] end
  end
  return found
end
