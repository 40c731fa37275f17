--[[
  split_slot: splits one slot of a growing topic (amount m -> 2m): old slot s keeps the members it holds
  now and from here on takes only messages whose slot under 2m is s; those whose slot is s + m go to the
  new slot. The members cannot be moved: a member sent with a slot basis does not tell its new slot.

  Sets the split marker (a send that routes by m is then refused, see send.lua) and records which members
  the slot holds now, pending or in flight (the pre-split set). The new slot s + m is held (paused, see
  growth_hold.lua) until every pre-split member has left s, so that no two workers hold one key's messages
  at once. Idempotent: a slot already split is left as it is. Members held back by limits per key (KEYS[5] given,
  see pop_flow.lua) are in the pre-split set too: one ZUNIONSTORE per parked key.

  KEYS[1]  store queue     <prefix><topic>_<s>
  KEYS[2]  prepare queue   prepare{<prefix><topic>_<s>}
  KEYS[3]  split marker    split:<2m>{<prefix><topic>_<s>} (string: 2m)
  KEYS[4]  pre-split set   presplit:<2m>{<prefix><topic>_<s>} (sorted set, scores 0)
  KEYS[5..] optional keys, each recognised by its name before the hash tag (lib/optional_keys.lua), in any order:
           tenants{<prefix><topic>_<s>} (fair share, lib/fair.lua): the members of the tenants' queues
           tq:<tenant>{<prefix><topic>_<s>} are pre-split members too
           parkedkeys{<prefix><topic>_<s>} (limits per key): each key's members in parked:<key>{...} are too

  ARGV[1]  target amount   2m

  Returns  { split, held }: split 1 when this call split the slot, 0 when it was split before;
           held the members in the pre-split set
]]
local storeKey    = KEYS[1]
local prepareKey  = KEYS[2]
local markerKey   = KEYS[3]
local presplitKey = KEYS[4]
-- #include lib/call_all.lua: CHUNK and callAll(command, key, items)
-- #include lib/fair.lua: fair share between tenants
-- #include lib/keys.lua: limits per key (keysOf, freePlaces, forgetKeys, parkedOf, ...)
-- #include lib/optional_keys.lua: optionalKeys(first)
local optional = optionalKeys(5)

if redis.call('EXISTS', markerKey) == 1 then
  return { 0, redis.call('ZCARD', presplitKey) }
end
-- both set-typed checks first: a key of the wrong type fails the call before the marker is set
redis.call('ZCARD', storeKey)
redis.call('ZCARD', prepareKey)
redis.call('SET', markerKey, ARGV[1])
redis.call('ZUNIONSTORE', presplitKey, 2, storeKey, prepareKey, 'WEIGHTS', 0, 0)
if optional.tenants then
  for _, tenant in ipairs(redis.call('ZRANGE', optional.tenants, 0, -1)) do
    if tenant ~= '' then redis.call('ZUNIONSTORE', presplitKey, 2, presplitKey, fairQueue(storeKey, tenant), 'WEIGHTS', 0, 0) end
  end
end
if optional.parkedkeys then
  for _, key in ipairs(redis.call('ZRANGE', optional.parkedkeys, 0, -1)) do
    redis.call('ZUNIONSTORE', presplitKey, 2, presplitKey, parkedKey(optional.parkedkeys, key), 'WEIGHTS', 0, 0)
  end
end
return { 1, redis.call('ZCARD', presplitKey) }
