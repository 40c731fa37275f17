--[[
  split_progress: forgets the pre-split members (see split_slot.lua) that have left an old slot: no
  longer pending in its store queue (nor held back by limits per key, KEYS[5] and KEYS[6] given) nor in flight in its
  prepare queue (committed, or dead). Looks at up
  to `limit` members from rank `offset` per call, so a large set costs several short calls.

  KEYS[1]  store queue     <prefix><topic>_<s>
  KEYS[2]  prepare queue   prepare{<prefix><topic>_<s>}
  KEYS[3]  pre-split set   presplit:<2m>{<prefix><topic>_<s>}
  KEYS[4]  split marker    split:<2m>{<prefix><topic>_<s>}
  KEYS[5]  flow keys       flowkey{<prefix><topic>_<s>} (optional, with KEYS[6]): member -> its key
  KEYS[6]  parked keys     parkedkeys{<prefix><topic>_<s>}

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

if redis.call('EXISTS', KEYS[4]) == 0 then
  return { -1, 0 }
end

local members = redis.call('ZRANGE', presplitKey, offset, offset + limit - 1)
local gone = {}
for _, member in ipairs(members) do
  if not redis.call('ZSCORE', storeKey, member) and not redis.call('ZSCORE', prepareKey, member) then
    gone[#gone + 1] = member
  end
end
if KEYS[5] and #gone > 0 then
  -- a member held back by its key is still in the slot
  local parked = parkedCopies({ keys = KEYS[5], parked = KEYS[6] }, gone)
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
