--[[
  grow_topic: reads or moves a topic's growth state in the registry (see docs/topic-growth.md). The
  registry records the amount producers route by; while a growth is under way the growth hash records
  the amount the topic is growing to. One doubling at a time: from <amount> to 2 * <amount>.

  KEYS[1]  topic registry  <prefix>rmq:topics (hash: topic name -> "<TYPE>:<slot amount>")
  KEYS[2]  growth hash     {<prefix>rmq:topics}growth (hash: topic name -> target slot amount while a growth
                           is under way, and "<topic name> grown-from" -> the amount before its first growth,
                           kept for good); its hash tag is the registry's name, so both live in one Redis
                           Cluster hash slot

  ARGV[1]  topic name
  ARGV[2]  action          read | begin | finish
  ARGV[3]  amount          begin and finish: the amount the registry must record (the doubling's start)

  Returns  { recorded definition or false, target amount or false, grown-from amount or false } after the action
           begin:  records target 2 * amount when the registry records <amount> and no other growth
                   is under way (nothing changes otherwise; the caller compares the reply)
           finish: records <TYPE>:<2 * amount> and forgets the growth, when that growth is under way
]]
local registryKey = KEYS[1]
local growthKey   = KEYS[2]
local topic       = ARGV[1]
local action      = ARGV[2]

local grownFromField = topic .. ' grown-from'
local recorded = redis.call('HGET', registryKey, topic)
local target = redis.call('HGET', growthKey, topic)
if action == 'read' or not recorded then
  return { recorded, target, redis.call('HGET', growthKey, grownFromField) }
end

local colon = string.find(recorded, ':', 1, true)
local recordedType = string.sub(recorded, 1, colon - 1)
local recordedAmount = tonumber(string.sub(recorded, colon + 1))
local amount = tonumber(ARGV[3])
local doubled = tostring(2 * amount)

if action == 'begin' then
  if recordedAmount == amount and not target then
    redis.call('HSET', growthKey, topic, doubled)
    redis.call('HSETNX', growthKey, grownFromField, amount)
    target = doubled
  end
elseif action == 'finish' then
  if recordedAmount == amount and target == doubled then
    recorded = recordedType .. ':' .. doubled
    redis.call('HSET', registryKey, topic, recorded)
    redis.call('HDEL', growthKey, topic)
    target = false
  end
end
return { recorded, target, redis.call('HGET', growthKey, grownFromField) }
