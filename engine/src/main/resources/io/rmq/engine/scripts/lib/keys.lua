-- Limits per key (docs/flow-control.md "Limits per key"). A member's key is its entry in the slot's flowkey hash
-- (member -> key), or SLOT_KEY without one: the whole slot is then one key (messages sent before the limits were
-- switched on are delivered, never more loosely than their slot). The slot's keyflow hash holds per key
-- c:<key> (its members in the prepare queue) and t:<key> (its rate's theoretical arrival time, ms); members
-- held back by their key's limit wait in parked:<key>{tag} with their store score, and parkedkeys{tag} scores
-- each key with parked members by when it may go again (+inf: until a place frees; 0: now). A member recorded
-- with the empty key (sent without a slot basis: its copies never run at once anyway) is not limited.
local SLOT_KEY = '~slot'

-- A key as part of a key name: '%', '{', '}' and control bytes percent-encoded, so that no key moves the tag.
local function encodeKey(key)
  return (string.gsub(key, '[%%{}%c]', function(c) return string.format('%%%02X', string.byte(c)) end))
end

-- The parked set of a key: built under the hash tag of the slot's parkedkeys key (declared in KEYS).
local function parkedKey(parkedKeys, key)
  return 'parked:' .. encodeKey(key) .. string.sub(parkedKeys, #'parkedkeys' + 1)
end

-- The keys of members (one HMGET of the flowkey hash), SLOT_KEY for a member without an entry.
local function keysOf(flowKeys, members)
  local found = callAll('HMGET', flowKeys, members)
  local keys = {}
  for i = 1, #members do keys[i] = found[i] or SLOT_KEY end
  return keys
end

-- ZADD of score, member, ... pairs with an option (NX), in calls of at most CHUNK pairs.
local function zaddWith(option, key, pairs)
  for from = 1, #pairs, CHUNK do
    redis.call('ZADD', key, option, unpack(pairs, from, math.min(from + CHUNK - 1, #pairs)))
  end
end

--[[ Frees the places of members that left the prepare queue: their keys' c:<key> counts go down (fields at 0
  are removed, with a rate's t:<key> that lies in the past), and a key of them parked until a place frees is
  marked ready (score 0 in parkedkeys). Returns whether a key was marked ready (the caller publishes a wake
  notice), the members' keys, and the set of those keys that have parked members. Commands: HMGET flowkey,
  HMGET keyflow, HSET and/or HDEL keyflow, ZMSCORE parkedkeys, and ZADD parkedkeys when a key became ready. ]]
local function freePlaces(flow, members, now)
  if #members == 0 then return false, {}, {} end
  local keys = keysOf(flow.keys, members)
  local distinct, left = {}, {}
  for _, key in ipairs(keys) do
    -- the empty key is not limited, nor counted
    if key ~= '' then
      if left[key] == nil then
        distinct[#distinct + 1] = key
        left[key] = 0
      end
      left[key] = left[key] + 1
    end
  end
  local fields = {}
  for i, key in ipairs(distinct) do
    fields[2 * i - 1] = 'c:' .. key
    fields[2 * i] = 't:' .. key
  end
  if #distinct == 0 then return false, keys, {} end
  local values = callAll('HMGET', flow.counts, fields)
  local set, drop = {}, {}
  for i, key in ipairs(distinct) do
    local count = (tonumber(values[2 * i - 1] or '0') or 0) - left[key]
    if count > 0 then
      set[#set + 1] = 'c:' .. key
      set[#set + 1] = count
    else
      drop[#drop + 1] = 'c:' .. key
      local tat = tonumber(values[2 * i] or '')
      if tat and tat <= now then drop[#drop + 1] = 't:' .. key end
    end
  end
  if #set > 0 then callAll('HSET', flow.counts, set) end
  if #drop > 0 then callAll('HDEL', flow.counts, drop) end
  local parkedScores = callAll('ZMSCORE', flow.parked, distinct)
  local ready, parkedKeys = {}, {}
  for i, key in ipairs(distinct) do
    if parkedScores[i] then parkedKeys[key] = true end
    if parkedScores[i] == 'inf' then
      ready[#ready + 1] = 0
      ready[#ready + 1] = key
    end
  end
  if #ready > 0 then callAll('ZADD', flow.parked, ready) end
  return #ready > 0, keys, parkedKeys
end

-- Removes the flowkey entries of the members that left the slot (forget[i] true; members[i] has key keys[i]),
-- but not that of a member still parked (a copy held back by its key). Commands: HDEL flowkey, and one ZMSCORE per
-- parked key among them.
local function forgetKeys(flow, members, keys, parkedKeys, forget)
  local drop, check, checkKeys = {}, {}, {}
  for i, member in ipairs(members) do
    if forget[i] then
      local key = keys[i]
      if parkedKeys[key] then
        if check[key] == nil then
          check[key] = {}
          checkKeys[#checkKeys + 1] = key
        end
        check[key][#check[key] + 1] = member
      else
        drop[#drop + 1] = member
      end
    end
  end
  for _, key in ipairs(checkKeys) do
    local there = callAll('ZMSCORE', parkedKey(flow.parked, key), check[key])
    for i, member in ipairs(check[key]) do
      if not there[i] then drop[#drop + 1] = member end
    end
  end
  if #drop > 0 then callAll('HDEL', flow.keys, drop) end
end

--[[ Which of `members` wait in their key's parked set: member -> { set = the set's name, key = the key, score = its
  score there }. Commands: EXISTS parkedkeys; when it exists, HMGET flowkey, ZMSCORE parkedkeys, and one ZMSCORE per
  parked key among the members'. ]]
local function parkedCopies(flow, members)
  local found = {}
  if #members == 0 or redis.call('EXISTS', flow.parked) == 0 then return found end
  local keys = keysOf(flow.keys, members)
  local byKey, distinct = {}, {}
  for i, key in ipairs(keys) do
    if key ~= '' then
      if byKey[key] == nil then
        byKey[key] = {}
        distinct[#distinct + 1] = key
      end
      byKey[key][#byKey[key] + 1] = members[i]
    end
  end
  local parked = callAll('ZMSCORE', flow.parked, distinct)
  for i, key in ipairs(distinct) do
    if parked[i] then
      local set = parkedKey(flow.parked, key)
      local scores = callAll('ZMSCORE', set, byKey[key])
      for j, member in ipairs(byKey[key]) do
        if scores[j] then found[member] = { set = set, key = key, score = scores[j] } end
      end
    end
  end
  return found
end

-- Removes members from their parked sets (copies as parkedCopies found them); a key whose set empties leaves
-- parkedkeys.
local function unparkCopies(flow, copies, members)
  local bySet, sets = {}, {}
  for _, member in ipairs(members) do
    local copy = copies[member]
    if copy then
      if bySet[copy.set] == nil then
        bySet[copy.set] = {}
        sets[#sets + 1] = copy
      end
      bySet[copy.set][#bySet[copy.set] + 1] = member
    end
  end
  for _, copy in ipairs(sets) do
    callAll('ZREM', copy.set, bySet[copy.set])
    if redis.call('EXISTS', copy.set) == 0 then redis.call('ZREM', flow.parked, copy.key) end
  end
end

-- What lib/expiry.lua's expireMembers takes as `parked`: the slot's parked copies, and the keys of the members
-- gone from the slot.
local function parkedOf(flow)
  return {
    find = function(members) return parkedCopies(flow, members) end,
    remove = function(found, members, gone)
      unparkCopies(flow, found, members)
      callAll('HDEL', flow.keys, gone)
    end,
  }
end

-- The members of `members` that are still in the slot's prepare queue (one ZMSCORE), once each.
local function stillPrepared(prepareKey, members)
  if #members == 0 then return {} end
  local scores = callAll('ZMSCORE', prepareKey, members)
  local found, seen = {}, {}
  for i, member in ipairs(members) do
    if scores[i] and not seen[member] then
      seen[member] = true
      found[#found + 1] = member
    end
  end
  return found
end
