--[[
  merge_pending: while an old slot s of a growing topic still holds members from before its split (see
  split_slot.lua), a message whose slot under the new amount is s + m first comes here: when the same
  member is pending in s and is one of those pre-split members, it merges into it by the topic type's
  rule (send.lua), so a duplicate sent during the growth still merges with its pending copy. A message
  that merged nothing is then sent to s + m by the caller.

  KEYS[1]  store queue     <prefix><topic>_<s>
  KEYS[2]  pre-split set   presplit:<2m>{<prefix><topic>_<s>}
  KEYS[3]  counters hash   counters{<prefix><topic>_<s>} (optional): fields sent and merged, for the merged ones

  ARGV[1]  topic type      RANGE_MERGE | PRIORITY | FIXED_TIME
  ARGV[2]  wake channel    rmq:wake:<prefix><topic> (PUBLISH), or on a Redis Cluster
                           rmq:wake{<prefix><topic>_<s>} (SPUBLISH, sharded)
  ARGV[3]  slot            s, echoed in the wake notice
  ARGV[4..] pairs          value, member, value, member, ... (values as in send.lua)

  Returns  { held, status1, score1, status2, score2, ... }
           held    1 while the pre-split set exists, 0 once s holds no pre-split member any more
           status  1 merged into the pending copy in s, 0 not merged (send it to s + m)
           score   the pending copy's score after the merge, as a string; false when not merged
]]
if redis.replicate_commands then redis.replicate_commands() end

local storeKey    = KEYS[1]
local presplitKey = KEYS[2]
local countersKey = KEYS[3]
local topicType   = ARGV[1]
local wakeChannel = ARGV[2]
local slot        = ARGV[3]
-- #include lib/clock.lua: redisNow()
-- #include lib/wake.lua: publishWake(channel, slot, delay)

local now = redisNow()
local held = redis.call('EXISTS', presplitKey)
local result = { held }
local merged = 0
local wake = false
for i = 4, #ARGV, 2 do
  local value, member = ARGV[i], ARGV[i + 1]
  local existing = held == 1 and redis.call('ZSCORE', presplitKey, member) and redis.call('ZSCORE', storeKey, member)
  if existing then
    if topicType ~= 'RANGE_MERGE' then
      local score = tonumber(value)
      -- a FIXED_TIME copy moved earlier may be due before the time an idle consumer sleeps for
      if topicType == 'FIXED_TIME' and score < tonumber(existing) then wake = true end
      redis.call('ZADD', storeKey, score, member)
    end
    merged = merged + 1
    result[#result + 1] = 1
    result[#result + 1] = redis.call('ZSCORE', storeKey, member)
  else
    result[#result + 1] = 0
    result[#result + 1] = false
  end
end
if wake then publishWake(wakeChannel, slot, 0) end
if countersKey and merged > 0 then
  redis.call('HINCRBY', countersKey, 'sent', merged)
  redis.call('HINCRBY', countersKey, 'merged', merged)
end
return result
