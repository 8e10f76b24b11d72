/**
 * The agent-style tasks of bench/agent-chars.mjs: for each spec, multi-step tasks as the
 * operations a competent agent calls in order. A step: `find`, the phrase it searches with;
 * `op`, the operation it picks; `args`, the arguments it gives (values an agent would have
 * read from the earlier answers or the task); `fields`, the fields of the answer the task needs
 * (passed only in the runs where the agent uses call_operation's `fields`; EC2's paths name its
 * XML elements, as the bridge reads its XML answers into JSON). Written for this
 * benchmark from each API's own reference, not from any published task set.
 */

const repo = { owner: "octocat", repo: "Hello-World" };

export const GITHUB_TASKS = [
  {
    task: "open issues of a repository, then the comments of one",
    steps: [
      {
        find: "list open issues of a repository",
        op: "issues_list-for-repo",
        args: { ...repo, state: "open" },
        fields: ["[].number", "[].title", "[].comments"],
      },
      {
        find: "list comments on an issue",
        op: "issues_list-comments",
        args: { ...repo, issue_number: 1347 },
        fields: ["[].user.login", "[].body"],
      },
    ],
  },
  {
    task: "the latest release of a repository and its assets",
    steps: [
      {
        find: "get the latest release of a repository",
        op: "repos_get-latest-release",
        args: repo,
        fields: ["id", "tag_name", "name"],
      },
      {
        find: "list assets of a release",
        op: "repos_list-release-assets",
        args: { ...repo, release_id: 1 },
        fields: ["[].name", "[].browser_download_url", "[].size"],
      },
    ],
  },
  {
    task: "open pull requests, one of them, and the files it changes",
    steps: [
      {
        find: "list pull requests",
        op: "pulls_list",
        args: { ...repo, state: "open" },
        fields: ["[].number", "[].title", "[].user.login"],
      },
      {
        find: "get a pull request",
        op: "pulls_get",
        args: { ...repo, pull_number: 1347 },
        fields: ["title", "state", "mergeable", "additions", "deletions", "changed_files"],
      },
      {
        find: "list files changed in a pull request",
        op: "pulls_list-files",
        args: { ...repo, pull_number: 1347 },
        fields: ["[].filename", "[].status", "[].changes"],
      },
    ],
  },
  {
    task: "a repository's details and its top contributors",
    steps: [
      {
        find: "get a repository",
        op: "repos_get",
        args: repo,
        fields: ["full_name", "description", "stargazers_count", "default_branch", "license.name"],
      },
      {
        find: "list contributors of a repository",
        op: "repos_list-contributors",
        args: { ...repo, per_page: 10 },
        fields: ["[].login", "[].contributions"],
      },
    ],
  },
  {
    task: "recent workflow runs and the jobs of one",
    steps: [
      {
        find: "list workflow runs for a repository",
        op: "actions_list-workflow-runs-for-repo",
        args: { ...repo, per_page: 5 },
        fields: ["total_count", "workflow_runs[].id", "workflow_runs[].name", "workflow_runs[].conclusion"],
      },
      {
        find: "list jobs for a workflow run",
        op: "actions_list-jobs-for-workflow-run",
        args: { ...repo, run_id: 30433642 },
        fields: ["jobs[].name", "jobs[].conclusion", "jobs[].steps[].name"],
      },
    ],
  },
  {
    task: "open an issue, label it and comment on it",
    steps: [
      {
        find: "create an issue",
        op: "issues_create",
        args: { ...repo, title: "Crash on start", body: "The app crashes when started offline." },
        fields: ["number", "html_url"],
      },
      {
        find: "add labels to an issue",
        op: "issues_add-labels",
        args: { ...repo, issue_number: 1347, body: { labels: ["bug"] } },
        fields: ["[].name"],
      },
      {
        find: "comment on an issue",
        op: "issues_create-comment",
        args: { ...repo, issue_number: 1347, body: "Reproduced on 2.3.1." },
        fields: ["id", "html_url"],
      },
    ],
  },
  {
    task: "find repositories about a topic, then the branches of one",
    steps: [
      {
        find: "search repositories",
        op: "search_repos",
        args: { q: "topic:mcp language:typescript", per_page: 5 },
        fields: ["total_count", "items[].full_name", "items[].stargazers_count"],
      },
      {
        find: "list branches of a repository",
        op: "repos_list-branches",
        args: repo,
        fields: ["[].name", "[].protected"],
      },
    ],
  },
  {
    task: "a user's profile and their public repositories",
    steps: [
      {
        find: "get a user",
        op: "users_get-by-username",
        args: { username: "octocat" },
        fields: ["login", "name", "public_repos", "company"],
      },
      {
        find: "list repositories of a user",
        op: "repos_list-for-user",
        args: { username: "octocat", per_page: 10 },
        fields: ["[].name", "[].description", "[].stargazers_count"],
      },
    ],
  },
  {
    task: "recent commits of a repository and what one changed",
    steps: [
      {
        find: "list commits of a repository",
        op: "repos_list-commits",
        args: { ...repo, per_page: 5 },
        fields: ["[].sha", "[].commit.message", "[].commit.author.name"],
      },
      {
        find: "get a commit",
        op: "repos_get-commit",
        args: { ...repo, ref: "6dcb09b5b57875f334f61aebed695e2e4193db5e" },
        fields: ["stats", "files[].filename", "files[].status"],
      },
    ],
  },
];

export const DIGITALOCEAN_TASKS = [
  {
    task: "list droplets, then one droplet's details",
    steps: [
      {
        find: "list all droplets",
        op: "droplets_list",
        args: {},
        fields: ["droplets[].id", "droplets[].name", "droplets[].status"],
      },
      {
        find: "get a droplet by id",
        op: "droplets_get",
        args: { droplet_id: 3164444 },
        fields: ["droplet.name", "droplet.status", "droplet.networks.v4[].ip_address", "droplet.region.slug"],
      },
    ],
  },
  {
    task: "the DNS records of a domain",
    steps: [
      { find: "list domains", op: "domains_list", args: {}, fields: ["domains[].name"] },
      {
        find: "list DNS records of a domain",
        op: "domains_list_records",
        args: { domain_name: "example.com" },
        fields: ["domain_records[].type", "domain_records[].name", "domain_records[].data"],
      },
    ],
  },
  {
    task: "add an A record to a domain",
    steps: [
      {
        find: "create a DNS record",
        op: "domains_create_record",
        args: {
          domain_name: "example.com",
          body: { type: "A", name: "www", data: "162.10.66.0", ttl: 1800 },
        },
        fields: ["domain_record.id"],
      },
    ],
  },
  {
    task: "database clusters and the users of one",
    steps: [
      {
        find: "list database clusters",
        op: "databases_list_clusters",
        args: {},
        fields: ["databases[].id", "databases[].name", "databases[].engine"],
      },
      {
        find: "list users of a database cluster",
        op: "databases_list_users",
        args: { database_cluster_uuid: "9cc10173-e9ea-4176-9dbc-a4cee4c4ff30" },
        fields: ["users[].name", "users[].role"],
      },
    ],
  },
  {
    task: "account limits and SSH keys",
    steps: [
      {
        find: "get account information",
        op: "account_get",
        args: {},
        fields: ["account.droplet_limit", "account.status"],
      },
      { find: "list SSH keys", op: "sshKeys_list", args: {}, fields: ["ssh_keys[].id", "ssh_keys[].name"] },
    ],
  },
  {
    task: "put a droplet behind a firewall",
    steps: [
      {
        find: "list firewalls",
        op: "firewalls_list",
        args: {},
        fields: ["firewalls[].id", "firewalls[].name"],
      },
      {
        find: "add droplets to a firewall",
        op: "firewalls_assign_droplets",
        args: { firewall_id: "bb4b2611-3d72-467b-8602-280330ecd65c", droplet_ids: [3164444] },
      },
    ],
  },
  {
    task: "Kubernetes clusters and the node pools of one",
    steps: [
      {
        find: "list kubernetes clusters",
        op: "kubernetes_list_clusters",
        args: {},
        fields: [
          "kubernetes_clusters[].id",
          "kubernetes_clusters[].name",
          "kubernetes_clusters[].status.state",
        ],
      },
      {
        find: "list node pools of a kubernetes cluster",
        op: "kubernetes_list_nodePools",
        args: { cluster_id: "bd5f5959-5e1e-4205-a714-a914373942af" },
        fields: ["node_pools[].name", "node_pools[].size", "node_pools[].count"],
      },
    ],
  },
  {
    task: "snapshot a block storage volume",
    steps: [
      {
        find: "list block storage volumes",
        op: "volumes_list",
        args: {},
        fields: ["volumes[].id", "volumes[].name", "volumes[].size_gigabytes"],
      },
      {
        find: "create a snapshot of a volume",
        op: "volumeSnapshots_create",
        args: { volume_id: "7724db7c-e098-11e5-b522-000f53304e51", name: "big-data-snapshot1475261774" },
        fields: ["snapshot.id", "snapshot.created_at"],
      },
    ],
  },
  {
    task: "reboot a droplet",
    steps: [
      {
        find: "reboot a droplet",
        retry: "initiate a droplet action",
        op: "dropletActions_post",
        args: { droplet_id: 3164444, body: { type: "reboot" } },
        fields: ["action.id", "action.status"],
      },
    ],
  },
];

const running = { Filter: [{ Name: "instance-state-name", Values: ["running"] }] };

export const EC2_TASKS = [
  {
    task: "running instances, then the security groups of one",
    steps: [
      {
        find: "list running instances",
        op: "GET_DescribeInstances",
        args: running,
        fields: [
          "reservationSet[].instancesSet[].instanceId",
          "reservationSet[].instancesSet[].instanceState.name",
          "reservationSet[].instancesSet[].groupSet[].groupId",
        ],
      },
      {
        find: "describe security groups",
        op: "GET_DescribeSecurityGroups",
        args: { GroupId: ["sg-0a1b2c3d4e5f60718"] },
        fields: [
          "securityGroupInfo[].groupId",
          "securityGroupInfo[].groupName",
          "securityGroupInfo[].ipPermissions[].ipProtocol",
          "securityGroupInfo[].ipPermissions[].fromPort",
          "securityGroupInfo[].ipPermissions[].toPort",
          "securityGroupInfo[].ipPermissions[].ipRanges[].cidrIp",
        ],
      },
    ],
  },
  {
    task: "a VPC and its subnets",
    steps: [
      {
        find: "list VPCs",
        op: "GET_DescribeVpcs",
        args: {},
        fields: ["vpcSet[].vpcId", "vpcSet[].cidrBlock", "vpcSet[].isDefault"],
      },
      {
        find: "list subnets of a VPC",
        op: "GET_DescribeSubnets",
        args: { Filter: [{ Name: "vpc-id", Values: ["vpc-0a1b2c3d4e5f60718"] }] },
        fields: ["subnetSet[].subnetId", "subnetSet[].cidrBlock", "subnetSet[].availabilityZone"],
      },
    ],
  },
  {
    task: "create a security group that allows SSH",
    steps: [
      {
        find: "create a security group",
        op: "GET_CreateSecurityGroup",
        args: {
          GroupName: "ssh-only",
          GroupDescription: "SSH from the office",
          VpcId: "vpc-0a1b2c3d4e5f60718",
        },
        fields: ["groupId"],
      },
      {
        find: "allow inbound traffic to a security group",
        op: "GET_AuthorizeSecurityGroupIngress",
        args: {
          GroupId: "sg-0a1b2c3d4e5f60718",
          IpProtocol: "tcp",
          FromPort: 22,
          ToPort: 22,
          CidrIp: "203.0.113.0/24",
        },
        fields: ["return", "securityGroupRuleSet[].securityGroupRuleId"],
      },
    ],
  },
  {
    task: "snapshot a volume",
    steps: [
      {
        find: "list EBS volumes",
        op: "GET_DescribeVolumes",
        args: {},
        fields: ["volumeSet[].volumeId", "volumeSet[].size", "volumeSet[].status"],
      },
      {
        find: "create a snapshot of a volume",
        op: "GET_CreateSnapshot",
        args: { VolumeId: "vol-0a1b2c3d4e5f60718", Description: "before upgrade" },
        fields: ["snapshotId", "status"],
      },
    ],
  },
  {
    task: "find an Ubuntu image and launch an instance",
    steps: [
      {
        find: "find machine images",
        retry: "describe images",
        op: "GET_DescribeImages",
        args: { Owner: ["099720109477"], Filter: [{ Name: "name", Values: ["ubuntu/images/*22.04*"] }] },
        fields: ["imagesSet[].imageId", "imagesSet[].name", "imagesSet[].creationDate"],
      },
      {
        find: "launch an instance",
        retry: "run instances",
        op: "GET_RunInstances",
        args: { ImageId: "ami-0a1b2c3d4e5f60718", InstanceType: "t3.micro", MinCount: 1, MaxCount: 1 },
        fields: ["instancesSet[].instanceId", "instancesSet[].instanceState.name"],
      },
    ],
  },
  {
    task: "stop an instance and check its status",
    steps: [
      {
        find: "stop an instance",
        op: "GET_StopInstances",
        args: { InstanceId: ["i-0a1b2c3d4e5f60718"] },
        fields: ["instancesSet[].instanceId", "instancesSet[].currentState.name"],
      },
      {
        find: "get the status of an instance",
        op: "GET_DescribeInstanceStatus",
        args: { InstanceId: ["i-0a1b2c3d4e5f60718"], IncludeAllInstances: true },
        fields: [
          "instanceStatusSet[].instanceId",
          "instanceStatusSet[].instanceState.name",
          "instanceStatusSet[].instanceStatus.status",
          "instanceStatusSet[].systemStatus.status",
        ],
      },
    ],
  },
  {
    task: "key pairs, and a new one",
    steps: [
      {
        find: "list key pairs",
        op: "GET_DescribeKeyPairs",
        args: {},
        fields: ["keySet[].keyName", "keySet[].keyPairId"],
      },
      {
        find: "create a key pair",
        op: "GET_CreateKeyPair",
        args: { KeyName: "deploy-2026" },
        fields: ["keyName", "keyPairId", "keyMaterial"],
      },
    ],
  },
  {
    task: "tag an instance and read its tags back",
    steps: [
      {
        find: "add tags to a resource",
        op: "GET_CreateTags",
        args: { ResourceId: ["i-0a1b2c3d4e5f60718"], Tag: [{ Key: "team", Value: "web" }] },
      },
      {
        find: "list tags",
        op: "GET_DescribeTags",
        args: { Filter: [{ Name: "resource-id", Values: ["i-0a1b2c3d4e5f60718"] }] },
        fields: ["tagSet[].key", "tagSet[].value"],
      },
    ],
  },
];
