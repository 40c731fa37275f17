--[[
  unpark: brings every member held back by limits per key (pop_flow.lua) back into a slot's store queue, for a
  topic whose consumers no longer limit keys: without it, members parked when the limits were switched off would
  wait for a consumer with limits. Up to ARGV[4] keys per call, their members merged with a copy sent meanwhile by
  the type's rule (the parked copy being the older: RANGE_MERGE keeps its score, PRIORITY and FIXED_TIME the score
  sent last). The key counts (keyflow) stay: the members in flight still hold their places, should limits return.
  A wake notice "<slot>:0" is published when members came back. Counters: field unparked.

  KEYS[1]  store queue     <prefix><topic>_<slot>
  KEYS[2]  parked keys     parkedkeys{<prefix><topic>_<slot>} (each key's members in parked:<encoded key>{...})
  KEYS[3]  counters hash   counters{<prefix><topic>_<slot>}

  ARGV[1]  topic type      RANGE_MERGE | PRIORITY | FIXED_TIME
  ARGV[2]  wake channel    rmq:wake:<prefix><topic> (PUBLISH), or on a Redis Cluster
                           rmq:wake{<prefix><topic>_<slot>} (SPUBLISH, sharded)
  ARGV[3]  slot            the slot number, echoed in the wake notice
  ARGV[4]  limit           most keys brought back by this call (>= 1)

  Returns  { members brought back, 1 when parked keys remain (call again), else 0 }
]]
local storeKey    = KEYS[1]
local parkedKeys  = KEYS[2]
local countersKey = KEYS[3]
local topicType   = ARGV[1]
-- #include lib/wake.lua: publishWake(channel, slot, delay)
-- #include lib/call_all.lua: CHUNK and callAll(command, key, items)
-- #include lib/keys.lua: limits per key (keysOf, freePlaces, forgetKeys, parkedOf, ...)

local keys = redis.call('ZRANGE', parkedKeys, 0, tonumber(ARGV[4]) - 1)
local moved = 0
for _, key in ipairs(keys) do
  local set = parkedKey(parkedKeys, key)
  local parked = redis.call('ZRANGE', set, 0, -1, 'WITHSCORES')
  local back = {}
  for j = 1, #parked, 2 do
    back[j] = parked[j + 1]
    back[j + 1] = parked[j]
  end
  if #back > 0 then
    if topicType == 'RANGE_MERGE' then callAll('ZADD', storeKey, back) else zaddWith('NX', storeKey, back) end
    moved = moved + #back / 2
  end
  redis.call('DEL', set)
end
if #keys > 0 then callAll('ZREM', parkedKeys, keys) end
if moved > 0 then
  publishWake(ARGV[2], ARGV[3], 0)
  redis.call('HINCRBY', countersKey, 'unparked', moved)
end
return { moved, redis.call('EXISTS', parkedKeys) }
