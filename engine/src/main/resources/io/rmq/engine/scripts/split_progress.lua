--[[
  split_progress: forgets the pre-split members (see split_slot.lua) that have left an old slot: no
  longer pending in its store queue (nor held back by limits per key, KEYS[5] and KEYS[6] given) nor in flight in its
  prepare queue (committed, or dead). Looks at up
  to `limit` members from rank `offset` per call, so a large set costs several short calls.

  KEYS[1]  store queue     <prefix><topic>_<s>
  KEYS[2]  prepare queue   prepare{<prefix><topic>_<s>}
  KEYS[3]  pre-split set   presplit:<2m>{<prefix><topic>_<s>}
  KEYS[4]  split marker    split:<2m>{<prefix><topic>_<s>}
  KEYS[5..] optional keys, each recognised by its name before the hash tag (lib/optional_keys.lua), in any order:
           tenants{<prefix><topic>_<s>} (fair share, lib/fair.lua): a member pending in a tenant's queue
           tq:<tenant>{<prefix><topic>_<s>} has not left either
           flowkey{<prefix><topic>_<s>} (member -> its key) with parkedkeys{<prefix><topic>_<s>} (limits per key): a
           member held back by its key has not left either

  ARGV[1]  offset          rank to start at (0 for the first call)
  ARGV[2]  limit           most members to look at (> 0)

  Returns  { remaining, next offset }: members still held; the rank to pass next (0 after the last one)
           { -1, 0 } when the split marker is missing (lost in a failover before it was replicated): nothing
           is known of what the slot held; split it again
]]
local storeKey    = KEYS[1]
local prepareKey  = KEYS[2]
local presplitKey = KEYS[3]
local offset      = tonumber(ARGV[1])
local limit       = tonumber(ARGV[2])
-- #include lib/call_all.lua: CHUNK and callAll(command, key, items)
-- #include lib/keys.lua: limits per key (keysOf, freePlaces, forgetKeys, parkedOf, ...)
-- #include lib/optional_keys.lua: optionalKeys(first)
local optional = optionalKeys(5)
-- #include lib/fair.lua: fair share between tenants
local tenantQueues = {}
if optional.tenants then
  for _, tenant in ipairs(redis.call('ZRANGE', optional.tenants, 0, -1)) do
    if tenant ~= '' then tenantQueues[#tenantQueues + 1] = fairQueue(storeKey, tenant) end
  end
end
local function inTenantQueue(member)
  for _, queue in ipairs(tenantQueues) do
    if redis.call('ZSCORE', queue, member) then return true end
  end
  return false
end

if redis.call('EXISTS', KEYS[4]) == 0 then
  return { -1, 0 }
end

local members = redis.call('ZRANGE', presplitKey, offset, offset + limit - 1)
local gone = {}
for _, member in ipairs(members) do
  if not redis.call('ZSCORE', storeKey, member) and not redis.call('ZSCORE', prepareKey, member)
      and not inTenantQueue(member) then
    gone[#gone + 1] = member
  end
end
if optional.flowkey and #gone > 0 then
  -- a member held back by its key is still in the slot
  local parked = parkedCopies({ keys = optional.flowkey, parked = optional.parkedkeys }, gone)
  local left = {}
  for _, member in ipairs(gone) do
    if not parked[member] then left[#left + 1] = member end
  end
  gone = left
end
for i = 1, #gone, 1000 do
  redis.call('ZREM', presplitKey, unpack(gone, i, math.min(i + 999, #gone)))
end
local remaining = redis.call('ZCARD', presplitKey)
local nextOffset = offset + #members - #gone
if #members < limit or nextOffset >= remaining then nextOffset = 0 end
return { remaining, nextOffset }
